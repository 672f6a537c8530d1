public import CoreTypes
public import Logging

/// Observes `Thing`s, as coaty-js's `ThingObserverController` (things are provided by any agent
/// that advertises them and answers for them, such as an ``ObjectProviderController``).
public final class ThingObserverController: Controller, SensorThingsObserving {
    let relay: SensorThingsRelay
    /// The agent that observes and asks.
    public var agent: Agent { relay.agent }

    /// Creates a controller for `agent`.
    public init(agent: Agent, logger: Logger = Logger.current) {
        relay = SensorThingsRelay(agent: agent, logger: logger)
    }

    /// The things that a Discover by object type `coaty.sensorThings.Thing` resolves until `timeout`.
    ///
    /// - Throws: the errors of ``Agent/discover(_:timeout:)``; `AgentError.Code.stopped` when the controller stopped.
    public func discoverThings(timeout: Duration = .seconds(5)) async throws -> EventStream<Thing> {
        try await relay.discover(Thing.self, timeout: timeout)
    }

    /// Observes advertised things (`ADV::coaty.sensorThings.Thing`) while `body` runs.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the
    ///   controller stopped; what `body` throws.
    public func observeAdvertisedThings<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<Thing>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await relay.advertised(Thing.self), body)
    }

    /// The things at a location, one array per Retrieve, that a Query by object type
    /// `coaty.sensorThings.Thing` with the condition `locationId Equals locationID` gets until `timeout`.
    ///
    /// - Throws: the errors of ``Agent/query(_:timeout:)``; `AgentError.Code.stopped` when the controller stopped.
    public func queryThings(atLocation locationID: String, timeout: Duration = .seconds(5)) async throws
        -> EventStream<[Thing]>
    {
        try await relay.query(Thing.self, filter: .where("locationId", .equals(.string(locationID))), timeout: timeout)
    }
}
