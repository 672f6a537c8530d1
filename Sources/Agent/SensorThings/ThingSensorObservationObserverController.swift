public import CoreTypes
public import Logging
import Synchronization

/// Follows the `Thing`s of the network, registers their `Sensor`s and observes those sensors'
/// channeled `Observation`s, as coaty-js's `ThingSensorObservationObserverController`.
///
/// ```swift
/// try await observer.observeRegisteredSensors { changes in
///     for await change in changes { show(change.total.map(\.sensor.name)) }
/// }
/// ```
///
/// - When it starts it discovers things and follows advertised ones; for each thing that passes
///   the thing filter it queries the thing's sensors (`parentObjectId` is the thing's id) and
///   follows the thing's advertised sensors.
/// - Each sensor that passes the sensor filter is registered (added, or changed when known) and its
///   observations on its channel (the sensor's object id) are observed, from before the change is
///   reported.
/// - A Deadvertise of an object id removes every sensor whose thing's `parentObjectId` is that id
///   (the thing's agent or owner), and the things with that parent are no longer followed.
/// - When it stops, every sensor is reported removed.
public final class ThingSensorObservationObserverController: Controller {
    /// The options of a ``ThingSensorObservationObserverController``.
    public struct Options: Sendable, Decodable {
        /// How long the Discover for things collects Resolves (JSON: seconds).
        public var discoverTimeout: Duration
        /// How long each Query for the sensors of a thing collects Retrieves (JSON: seconds).
        public var queryTimeout: Duration

        /// Creates options.
        public init(discoverTimeout: Duration = .seconds(5), queryTimeout: Duration = .seconds(5)) {
            self.discoverTimeout = discoverTimeout
            self.queryTimeout = queryTimeout
        }

        private enum CodingKeys: String, CodingKey {
            case discoverTimeout, queryTimeout
        }

        /// Decodes `{"discoverTimeout": seconds, "queryTimeout": seconds}`; a missing member keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func timeout(_ key: CodingKeys) throws -> Duration? {
                try container.decodeIfPresent(Double.self, forKey: key).map {
                    try ObjectLifecycleController.Options.duration(seconds: $0, at: container.codingPath + [key])
                }
            }
            self.init()
            if let seconds = try timeout(.discoverTimeout) { discoverTimeout = seconds }
            if let seconds = try timeout(.queryTimeout) { queryTimeout = seconds }
        }
    }

    /// The agent that observes and asks.
    public var agent: Agent { things.agent }
    /// The controller's options.
    public let options: Options
    /// The thing observer this controller works through (coaty-js's controller extends it).
    public let things: ThingObserverController
    /// The sensor observer this controller works through.
    public let sensors: SensorObserverController
    let logger: Logger
    let tasks = ControllerTasks()
    private let thingFilter: @Sendable (Thing) -> Bool
    private let sensorFilter: @Sendable (Sensor, Thing) -> Bool
    private let state = Mutex(State())
    /// The changes, under one key; a new watcher gets the last one first.
    private let changes = IoPointWatch([ThingSensorObservationObserverController.key: RegisteredSensorsChange()])
    /// The observations of the registered sensors, under one key.
    private let observations = IoPointWatch<SensorObservation>()
    private static let key = ""

    private struct FollowedThing {
        var thing: Thing
        /// Ends the following of the thing's advertised sensors.
        var stop: AsyncStream<Void>.Continuation?
    }

    private struct State {
        var registered = RegisteredSensors()
        var things: [String: FollowedThing] = [:]
        /// Ends the observation of a registered sensor's observations, by sensor id.
        var observing: [String: AsyncStream<Void>.Continuation] = [:]
        var isStopped = false
    }

    /// Creates a controller for `agent`.
    ///
    /// - Parameters:
    ///   - agent: the agent that observes and asks.
    ///   - options: the timeouts of the Discover and the Queries.
    ///   - thingFilter: whether a thing is followed (by default every thing).
    ///   - sensorFilter: whether a sensor of a followed thing is registered (by default every sensor).
    ///   - logger: where failed Discovers, Queries and subscriptions are logged (at debug).
    public init(
        agent: Agent, options: Options = Options(), thingFilter: @escaping @Sendable (Thing) -> Bool = { _ in true },
        sensorFilter: @escaping @Sendable (Sensor, Thing) -> Bool = { _, _ in true }, logger: Logger = Logger.current
    ) {
        things = ThingObserverController(agent: agent, logger: logger)
        sensors = SensorObserverController(agent: agent, logger: logger)
        self.options = options
        self.thingFilter = thingFilter
        self.sensorFilter = sensorFilter
        self.logger = logger
    }

    /// The sensors registered now, in the order they were first registered.
    public var registeredSensors: [RegisteredSensor] { state.withLock { $0.registered.total } }

    /// Observes the changes of the registered sensors while `body` runs: the last change first
    /// (``RegisteredSensorsChange/total`` is the current state; all lists are empty before the first),
    /// then each one. The changes end when the controller stops.
    public func observeRegisteredSensors<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (AsyncStream<RegisteredSensorsChange>) async throws -> Result
    ) async rethrows -> Result {
        try await changes.watch(Self.key, body)
    }

    /// Observes the observations of the registered sensors, each with its sensor and thing, while
    /// `body` runs (only those that arrive from then on). They end when the controller stops.
    public func observeSensorObservations<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: (AsyncStream<SensorObservation>) async throws -> Result
    ) async rethrows -> Result {
        try await observations.watch(Self.key, replayingLatest: false, body)
    }

    // MARK: - Lifecycle

    /// Follows advertised things and Deadvertise events from the first connection on, and
    /// discovers things once the agent is online.
    public func initialize() async throws {
        let advertised = try await things.relay.advertised(Thing.self)
        let deadvertised = try await agent.observeDeadvertise()
        tasks.add { [self] in
            do {
                for try await thing in advertised { await received(thing) }
            } catch {}
        }
        tasks.add { [self] in
            do {
                for try await event in deadvertised { removeThings(withParents: event.event.objectIDs) }
            } catch {}
        }
        tasks.add { [self] in
            do {
                for await state in agent.connectionStates() where state == .online { break }
                for try await thing in try await things.discoverThings(timeout: options.discoverTimeout) {
                    await received(thing)
                }
            } catch {
                logger.debug("Things not discovered", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Runs the observations until the controller stops.
    public func run() async throws {
        async let thingTasks: Void = things.run()
        async let sensorTasks: Void = sensors.run()
        await tasks.run()
        try await thingTasks
        try await sensorTasks
    }

    /// Ends the observations and reports every registered sensor removed.
    public func willStop() async throws {
        let stops = state.withLock { state in
            state.isStopped = true
            changes.set(state.registered.removeAll(), for: Self.key, onlyChanges: false)
            defer { (state.things, state.observing) = ([:], [:]) }
            return state.things.values.compactMap(\.stop) + state.observing.values
        }
        for stop in stops { stop.finish() }
        tasks.finish()
        try await things.willStop()
        try await sensors.willStop()
        changes.finish()
        observations.finish()
    }

    // MARK: - Things and sensors

    /// Follows a thing that passes the filter: its advertised sensors (once per thing, subscribed
    /// before its sensors are queried) and its sensors retrieved by a Query (each time it arrives).
    private func received(_ thing: Thing) async {
        guard thingFilter(thing) else { return }
        let thingID = thing.objectID
        let isNew = state.withLock { state -> Bool? in
            guard !state.isStopped else { return nil }
            defer { state.things[thingID, default: FollowedThing(thing: thing)].thing = thing }
            return state.things[thingID] == nil
        }
        guard let isNew else { return }
        if isNew { await followAdvertisedSensors(of: thingID) }
        tasks.add { [self] in
            do {
                for try await retrieved in try await sensors.querySensors(ofThing: thingID, timeout: options.queryTimeout) {
                    for sensor in retrieved { await received(sensor, ofThing: thingID) }
                }
            } catch {
                logger.debug("Sensors not queried", metadata: ["coaty.thing": "\(thingID)", "error": "\(error)"])
            }
        }
    }

    private func followAdvertisedSensors(of thingID: String) async {
        let advertised: EventStream<Sensor>
        do {
            advertised = try await sensors.relay.advertised(Sensor.self) { $0.parentObjectID == thingID }
        } catch {
            logger.debug("Sensors not followed", metadata: ["coaty.thing": "\(thingID)", "error": "\(error)"])
            return
        }
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        let isFollowed = state.withLock { state -> Bool in
            guard state.things[thingID] != nil else { return false }
            state.things[thingID]?.stop = stop
            return true
        }
        guard isFollowed else { return advertised.end() }
        tasks.add { [self] in
            await race(
                {
                    do {
                        for try await sensor in advertised { await self.received(sensor, ofThing: thingID) }
                    } catch {}
                }, until: stopped)
            advertised.end()
        }
    }

    /// Registers a sensor of a followed thing that passes the filter; a new one's observations are
    /// subscribed before it is reported added.
    private func received(_ sensor: Sensor, ofThing thingID: String) async {
        let sensorID = sensor.objectID
        let known = state.withLock { state in (state.things[thingID]?.thing, state.observing[sensorID] != nil) }
        guard let thing = known.0, sensorFilter(sensor, thing) else { return }
        var arriving: EventStream<Observation>?
        if !known.1 {
            do {
                arriving = try await sensors.channeledObservations(of: sensorID)
            } catch {
                logger.debug("Observations not observed", metadata: ["coaty.sensor": "\(sensorID)", "error": "\(error)"])
            }
        }
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        let observes = state.withLock { state -> Bool in
            guard !state.isStopped, let thing = state.things[thingID]?.thing else { return false }
            // Reported under the lock, so that watchers see the changes in order.
            changes.set(state.registered.register(sensor, of: thing), for: Self.key, onlyChanges: false)
            guard arriving != nil, state.observing[sensorID] == nil else { return false }
            state.observing[sensorID] = stop
            return true
        }
        guard observes, let arriving else {
            arriving?.end()
            return
        }
        tasks.add { [self] in
            await race({ await self.pair(arriving, of: sensorID) }, until: stopped)
            arriving.end()
        }
    }

    /// Passes on each observation with the sensor as registered when it arrives.
    private func pair(_ arriving: EventStream<Observation>, of sensorID: String) async {
        do {
            for try await observation in arriving {
                guard let sensor = state.withLock({ $0.registered[sensorID] }) else { continue }
                observations.set(
                    SensorObservation(observation: observation, sensor: sensor), for: Self.key, onlyChanges: false)
            }
        } catch {}
    }

    /// Removes the sensors whose thing's `parentObjectId` is one of `objectIDs`, and stops
    /// following those things and the things with those parents.
    private func removeThings(withParents objectIDs: [String]) {
        let stops = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            var stops: [AsyncStream<Void>.Continuation] = []
            for objectID in objectIDs {
                let removed = state.registered.removeSensors(ofThingsWithParent: objectID)
                if let removed { changes.set(removed, for: Self.key, onlyChanges: false) }
                let sensorIDs = removed?.removed.map(\.sensor.objectID) ?? []
                stops += sensorIDs.compactMap { state.observing.removeValue(forKey: $0) }
                let thingIDs = Set(removed?.removed.map(\.thing.objectID) ?? [])
                for (thingID, followed) in state.things
                where followed.thing.parentObjectID == objectID || thingIDs.contains(thingID) {
                    state.things[thingID] = nil
                    stops += followed.stop.map { [$0] } ?? []
                }
            }
            return stops
        }
        for stop in stops { stop.finish() }
    }
}
