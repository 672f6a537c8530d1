import Logging
import Synchronization

/// An agent's responder-group connections, one per group, made on first use; they run while the
/// agent runs and stop when it stops.
final class ResponderGroups: Sendable {
    private enum Phase { case idle, running, stopped }

    private struct State {
        var phase = Phase.idle
        var links: [String: Agent] = [:]
        var runs: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The connection of `group`, made by `make` the first time and started at once if the agent
    /// runs; `isRunning` says whether it was started.
    ///
    /// - Throws: `AgentError.Code.stopped` once the agent has stopped, and what `make` throws.
    func link(_ group: String, make: () throws -> Agent) throws -> (link: Agent, isRunning: Bool) {
        let (link, isNew, phase) = try state.withLock { state throws -> (Agent, Bool, Phase) in
            if state.phase == .stopped {
                throw AgentError(code: .stopped, detail: "the agent has stopped; cannot answer in responder group '\(group)'")
            }
            if let link = state.links[group] { return (link, false, state.phase) }
            let link = try make()
            state.links[group] = link
            return (link, true, state.phase)
        }
        if isNew, phase == .running { launch([link]) }
        return (link, phase == .running)
    }

    /// Every group's connection made so far.
    var all: [Agent] { state.withLock { Array($0.links.values) } }

    /// Starts every connection made so far (the agent's `run()` began).
    func start() {
        let links = state.withLock { state -> [Agent] in
            guard state.phase == .idle else { return [] }
            state.phase = .running
            return Array(state.links.values)
        }
        launch(links)
    }

    /// Returns once every connection has made its first attempt and its subscriptions are acknowledged.
    func waitUntilSubscribed() async {
        let links = state.withLock { Array($0.links.values) }
        for link in links { await link.waitUntilSubscribed() }
    }

    /// Stops every connection; the agent stops.
    func stop() {
        let links = state.withLock { state -> [Agent] in
            state.phase = .stopped
            return Array(state.links.values)
        }
        for link in links { link.stop() }
    }

    /// Closes every connection's socket at once, as a killed process's close.
    func closeAbruptly() {
        let links = state.withLock { state -> [Agent] in
            state.phase = .stopped
            return Array(state.links.values)
        }
        for link in links { link.closeConnectionAbruptly() }
    }

    /// Stops every connection and waits until each has closed.
    func stopAndWait() async {
        stop()
        let runs = state.withLock { $0.runs }
        for run in runs { await run.value }
    }

    /// Runs each link in a task of its own, as long as the agent runs.
    private func launch(_ links: [Agent]) {
        let logger = self.logger
        let runs = links.map { link in
            Task {
                do {
                    try await link.run()
                } catch {
                    logger.warning(
                        "A responder group's connection failed; until the agent runs again, the group's other agents take its requests",
                        metadata: ["coaty.responderGroup": "\(link.role)", "error": "\(error)"])
                }
            }
        }
        // A stop that came meanwhile has missed these links: stop them now.
        let isStopped = state.withLock { state in
            state.runs += runs
            return state.phase == .stopped
        }
        if isStopped { for link in links { link.stop() } }
    }
}
