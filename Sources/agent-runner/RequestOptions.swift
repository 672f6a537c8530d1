import Agent
import ArgumentParser
import CoreTypes
import ServiceLifecycle
import Synchronization

/// The options every two-way request takes.
struct RequestOptions: ParsableArguments {
    @Option(help: "How long to wait for responses, like 500ms, 2s or 1m.")
    var timeout = DurationArgument(.seconds(5), text: "5s")

    @Option(
        name: .customLong("max-responses"), help: "Stop after this many responses (default: all until the timeout).")
    var maxResponses: Int?

    func validate() throws {
        if let maxResponses, maxResponses < 1 {
            throw ValidationError("--max-responses: must be 1 or more, not \(maxResponses)")
        }
    }
}

extension CommandContext {
    /// Runs a one-shot agent that publishes `request` and prints each response until the timeout
    /// or `--max-responses`. The CLI's own answers (its identity resolving a Discover) are not
    /// responses from the network and are left out.
    ///
    /// - Throws: ``RunnerError`` with exit code 4 when no response arrived (unless a signal ended
    ///   the wait), 5 when every response `isFailure` says failed.
    func request<Request: PlannedRequest>(
        _ request: Request, option: String, options: RequestOptions, name: String,
        isFailure: @escaping @Sendable (Request.Response) -> String? = { _ in nil }
    ) async throws {
        _ = try check(option) { () throws(EventError) in try request.requestPlan(in: checkScope) { "check" } }
        let agent = try agent(defaultName: name, reconnect: CommandContext.oneShot)
        let (timeout, maxResponses, output, printer) = (options.timeout, options.maxResponses, output, printer)
        try await session().run(agent) { agent in
            let responses = try await agent.request(request, timeout: timeout.duration)
            let progress = ProgressLine(
                output: output, label: "Waiting for \(Request.Response.eventType) responses", timeout: timeout.duration)
            defer { progress.finish() }
            var count = 0
            var failures: [String] = []
            for try await response in responses.cancelOnGracefulShutdown()
            where response.sourceID != agent.identity.objectID {
                printer.print(response)
                count += 1
                if let failure = isFailure(response.event) { failures.append(failure) }
                progress.count(count)
                if let maxResponses, count >= maxResponses { break }
            }
            if count == 0, !Task.isShuttingDownGracefully {
                let scope = agent.scope
                throw RunnerError.timeout(
                    "no \(Request.Response.eventType) to the \(Request.eventType) arrived within \(timeout); "
                        + "check that a responder is online in namespace '\(scope.namespace)'"
                        + (scope.isCrossNamespacing ? "" : ", or pass --cross-namespace to ask every namespace"))
            }
            if count > 0, failures.count == count {
                throw RunnerError(
                    code: .allErrors,
                    message: "every \(Request.Response.eventType) was an error: \(failures.joined(separator: "; "))")
            }
        }
    }
}

/// A one-line progress display on stderr for a wait with a timeout: a spinner, the time waited
/// and the responses so far. Shows nothing unless the output is text on a terminal.
final class ProgressLine: Sendable {
    private let output: Output
    private let state = Mutex<(count: Int, task: Task<Void, Never>?)>((0, nil))

    init(output: Output, label: String, timeout: Duration?) {
        self.output = output
        guard output.showsProgress else { return }
        let start = ContinuousClock.now
        let task = Task { [weak self] in
            let frames = ["|", "/", "-", "\\"]
            var frame = 0
            while !Task.isCancelled, let self {
                let elapsed = ContinuousClock.now - start
                let count = self.state.withLock { $0.count }
                var text = "\(frames[frame % frames.count]) \(label)… \(Self.seconds(elapsed))"
                if let timeout { text += " of \(Self.seconds(timeout))" }
                if count > 0 { text += ", \(count) so far" }
                output.progress(text)
                frame += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        state.withLock { $0.task = task }
    }

    /// Updates the number of responses shown.
    func count(_ count: Int) {
        state.withLock { $0.count = count }
    }

    /// Stops and clears the line.
    func finish() {
        let task = state.withLock { state in
            defer { state.task = nil }
            return state.task
        }
        task?.cancel()
        output.progress(nil)
    }

    private static func seconds(_ duration: Duration) -> String {
        let tenths = duration.components.seconds * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
