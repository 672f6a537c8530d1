/// A part of an agent's behaviour that a ``Container`` runs: it observes and publishes through the
/// container's ``Agent`` and is told when the agent starts, goes online or offline, and stops.
///
/// A controller is created once, while the container bootstraps, by its ``ControllerComponent``,
/// which hands it a ``ControllerContext`` with the agent, its options and a logger. Keep what it
/// needs in `let` properties; every hook has a default that does nothing.
///
/// ```swift
/// struct LampController: Controller {
///     let agent: Agent
///     let lamp: Light
///
///     init(context: ControllerContext) throws {
///         agent = context.agent
///         lamp = Light(name: try context.options(as: LampOptions.self).name, isOn: false)
///     }
///
///     func didGoOnline() async throws {
///         try agent.advertise(lamp)
///     }
///
///     func run() async throws {
///         for try await request in try await agent.observeDiscover().cancelOnGracefulShutdown()
///         where request.event.matches(lamp) {
///             try request.respond(Resolve(object: lamp))
///         }
///     }
/// }
/// ```
///
/// The container calls the hooks one at a time, in the order of the components (``willStop()`` in
/// reverse order), never two hooks of the container at once; ``run()`` runs beside them. A hook
/// that throws stops the container gracefully, and ``Container/run()`` then throws a
/// ``ContainerError`` with code `ContainerError.Code.controllerFailed`.
///
/// | coaty-js | here |
/// | --- | --- |
/// | `onInit()` | the controller's initializer, then ``initialize()`` |
/// | `onCommunicationManagerStarting()` | ``initialize()`` (before connecting) and ``didGoOnline()`` |
/// | `onCommunicationManagerStopping()` | ``willStop()`` |
/// | `onDispose()` | the end of ``run()`` |
public protocol Controller: Sendable {
    /// Called once when the container starts, before the agent connects.
    ///
    /// Observations made here are subscribed with the agent's first connection, so no event is
    /// missed; publications wait in the agent's offline queue.
    func initialize() async throws

    /// Called each time the agent is online: after the first connection and after every reconnect.
    ///
    /// The identity has been advertised and every observation is subscribed again.
    func didGoOnline() async throws

    /// Called each time the agent lost its connection after having been online. It reconnects by
    /// itself; publications meanwhile wait in its offline queue.
    func didGoOffline() async throws

    /// Called once when the container stops: the place to deadvertise what the controller advertised.
    ///
    /// On graceful shutdown and after a controller failed, the agent is still connected (it stops
    /// after the controllers). On cancellation everything stops at once, so publications made here
    /// may not go out.
    func willStop() async throws

    /// The controller's own lifetime, run as a child task of the container beside the hooks.
    ///
    /// Loops here should end on graceful shutdown (`cancelOnGracefulShutdown()`); after
    /// ``willStop()`` returned the task is cancelled. The default returns at once.
    func run() async throws
}

extension Controller {
    /// Does nothing.
    public func initialize() async throws {}
    /// Does nothing.
    public func didGoOnline() async throws {}
    /// Does nothing.
    public func didGoOffline() async throws {}
    /// Does nothing.
    public func willStop() async throws {}
    /// Returns at once.
    public func run() async throws {}
}
