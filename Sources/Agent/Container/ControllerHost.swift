import Logging
import ServiceLifecycle
import Synchronization

/// A controller with its name, as a container holds it.
struct NamedController: Sendable {
    let name: String
    let controller: any Controller
}

/// The service inside a container that runs its controllers: their lifetimes as child tasks, and
/// their hooks one at a time, in order.
///
/// It runs after the agent in the container's service group, so on graceful shutdown it stops
/// first: ``Controller/willStop()`` runs while the agent is still connected.
struct ControllerHost: Service {
    enum Signal: Sendable {
        case state(ConnectionState)
        case stop
    }

    let agent: Agent
    let controllers: [NamedController]
    let execution: Container.ControllerExecution
    let logger: Logger

    func run() async throws {
        // Child tasks inherit the preference: the controllers' lifetimes, their jobs and the hooks.
        let preferred: (any TaskExecutor)? = execution == .agentExecutor ? agent.executor : nil
        try await withTaskExecutorPreference(preferred) { try await runControllers() }
    }

    private func runControllers() async throws {
        let (signals, signal) = AsyncStream.makeStream(of: Signal.self)
        let failure = FirstFailure()
        let fail: @Sendable (ContainerError) -> Void = { error in
            failure.record(error)
            signal.yield(.stop)
        }
        await withDiscardingTaskGroup { group in
            for entry in controllers {
                group.addTask {
                    do {
                        try await entry.controller.run()
                    } catch is CancellationError {
                        return
                    } catch {
                        fail(.controllerFailed(entry.name, "in run()", error))
                    }
                }
            }
            group.addTask {
                for await state in agent.connectionStates() { signal.yield(.state(state)) }
            }
            await withTaskCancellationHandler {
                await withGracefulShutdownHandler {
                    await dispatch(signals, failure: failure, fail: fail)
                } onGracefulShutdown: {
                    signal.yield(.stop)
                }
            } onCancel: {
                signal.yield(.stop)
            }
            group.cancelAll()
        }
        signal.finish()
        if let error = failure.error { throw error }
    }

    /// Calls the hooks for each signal in turn until the stop, then ``Controller/willStop()`` in reverse order.
    private func dispatch(
        _ signals: AsyncStream<Signal>, failure: FirstFailure, fail: @Sendable (ContainerError) -> Void
    ) async {
        var hooks = ConnectionHooks()
        signalLoop: for await signal in signals {
            switch signal {
            case .stop:
                break signalLoop
            case .state(let state):
                switch hooks.next(state) {
                case .none:
                    continue
                case .didGoOnline:
                    logger.debug("Controllers going online", metadata: ["agent.state": "\(state)"])
                    await callEach(controllers, "in didGoOnline()", failure: failure, fail: fail) {
                        try await $0.didGoOnline()
                    }
                case .didGoOffline:
                    logger.debug("Controllers going offline", metadata: ["agent.state": "\(state)"])
                    await callEach(controllers, "in didGoOffline()", failure: failure, fail: fail) {
                        try await $0.didGoOffline()
                    }
                }
            }
        }
        logger.debug("Controllers stopping")
        // Every controller is told, even after another one failed.
        for entry in controllers.reversed() {
            do {
                try await entry.controller.willStop()
            } catch is CancellationError {
                continue
            } catch {
                fail(.controllerFailed(entry.name, "in willStop()", error))
            }
        }
    }

    /// Calls `hook` on each controller in order; stops at the first failure.
    private func callEach(
        _ controllers: [NamedController], _ doing: String, failure: FirstFailure,
        fail: @Sendable (ContainerError) -> Void, _ hook: (any Controller) async throws -> Void
    ) async {
        for entry in controllers {
            guard failure.error == nil else { return }
            do {
                try await hook(entry.controller)
            } catch is CancellationError {
                return
            } catch {
                fail(.controllerFailed(entry.name, doing, error))
            }
        }
    }
}

/// The first failure of a controller; later ones are dropped.
final class FirstFailure: Sendable {
    private let first = Mutex<ContainerError?>(nil)

    var error: ContainerError? { first.withLock { $0 } }

    func record(_ error: ContainerError) {
        first.withLock { if $0 == nil { $0 = error } }
    }
}
