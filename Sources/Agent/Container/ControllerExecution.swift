extension Container {
    /// Where a container runs its controllers: their ``Controller/run()``, their online, offline and
    /// stop hooks, and the child tasks these start.
    ///
    /// A controller that iterates an observation (`observeCall`, `observeQuery`, `observeAdvertise`)
    /// handles each event about one thread switch sooner with ``agentExecutor``: the event reaches
    /// it, and its response leaves, on the thread that reads and writes the agent's socket, without
    /// waking a thread of the global pool (see ``Agent/executor``). Handlers registered with
    /// `serveCall` and friends (as ``ObjectProviderController`` does) run on that thread either
    /// way. That thread is shared with the other agents of its event loop, so every controller of such a
    /// container must never block it: no blocking I/O, no waiting on a lock or a semaphore that
    /// another thread holds for long, no long computation. Work of that kind belongs in a task of
    /// its own, `Task.detached` or a task with `executorPreference: globalConcurrentExecutor`.
    ///
    /// ```swift
    /// var configuration = Container.Configuration()
    /// configuration.controllerExecution = .agentExecutor
    /// ```
    public enum ControllerExecution: Sendable, Hashable {
        /// The controllers run where Swift runs tasks by default: the global concurrent pool.
        case globalPool
        /// The controllers prefer the agent's executor (``Agent/executor``). Their child tasks (task
        /// groups, `async let`) inherit the preference; an unstructured task keeps it only when
        /// created with `Task(executorPreference: context.agent.executor)`.
        case agentExecutor
    }
}
