public import CoreTypes
public import Logging

/// Observes `Sensor`s and their `Observation`s: the counterpart of a ``SensorSourceController``,
/// as coaty-js's `SensorObserverController`.
///
/// ```swift
/// try await observer.observeChanneledObservations(of: thermometerID) { observations in
///     for try await observation in observations { logger.info("\(observation.result)") }
/// }
/// ```
///
/// Objects arrive as the SensorThings structs whether or not the agent registered their object
/// types; one that does not pass their checks is dropped (logged at debug). Nothing is cached.
public final class SensorObserverController: Controller, SensorThingsObserving {
    let relay: SensorThingsRelay
    /// The agent that observes and asks.
    public var agent: Agent { relay.agent }

    /// Creates a controller for `agent`.
    public init(agent: Agent, logger: Logger = Logger.current) {
        relay = SensorThingsRelay(agent: agent, logger: logger)
    }

    /// Observes the observations of a sensor published on a channel (`CHN:<channelID>`, by default
    /// the sensor's object id) while `body` runs; only those whose `parentObjectId` is the sensor's.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` for an invalid channel id,
    ///   `AgentError.Code.stopped` when the agent or the controller stopped; what `body` throws.
    public func observeChanneledObservations<Result>(
        of sensorID: String, channelID: String? = nil, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Observation>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await channeledObservations(of: sensorID, channelID: channelID), body)
    }

    /// The observations of a sensor published on a channel (see
    /// ``observeChanneledObservations(of:channelID:isolation:_:)``); subscribed when this returns.
    func channeledObservations(of sensorID: String, channelID: String? = nil) async throws -> EventStream<Observation> {
        let events = try await agent.observeChannel(channelID ?? sensorID)
        let relay = self.relay
        return try relay.relay(events) { received in
            received.event.objects.lazy.compactMap { relay.typed($0, as: Observation.self) }
                .first { $0.parentObjectID == sensorID }
        }
    }

    /// Observes the advertised observations of a sensor (`ADV::coaty.sensorThings.Observation`)
    /// while `body` runs.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the
    ///   controller stopped; what `body` throws.
    public func observeAdvertisedObservations<Result>(
        of sensorID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (EventStream<Observation>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await relay.advertised(Observation.self) { $0.parentObjectID == sensorID }, body)
    }

    /// Observes advertised sensors (`ADV::coaty.sensorThings.Sensor`) while `body` runs.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the agent or the
    ///   controller stopped; what `body` throws.
    public func observeAdvertisedSensors<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (EventStream<Sensor>) async throws -> Result
    ) async throws -> Result {
        try await agent.observing(try await relay.advertised(Sensor.self), body)
    }

    /// The sensors that a Discover by object type `coaty.sensorThings.Sensor` resolves until `timeout`.
    ///
    /// - Throws: the errors of ``Agent/discover(_:timeout:)``; `AgentError.Code.stopped` when the controller stopped.
    public func discoverSensors(timeout: Duration = .seconds(5)) async throws -> EventStream<Sensor> {
        try await relay.discover(Sensor.self, timeout: timeout)
    }

    /// The sensors of a thing, one array per Retrieve, that a Query by object type
    /// `coaty.sensorThings.Sensor` with the condition `parentObjectId Equals thingID` gets until `timeout`.
    ///
    /// - Throws: the errors of ``Agent/query(_:timeout:)``; `AgentError.Code.stopped` when the controller stopped.
    public func querySensors(ofThing thingID: String, timeout: Duration = .seconds(5)) async throws
        -> EventStream<[Sensor]>
    {
        try await relay.query(Sensor.self, filter: .where("parentObjectId", .equals(.string(thingID))), timeout: timeout)
    }
}
