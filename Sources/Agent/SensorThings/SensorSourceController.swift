public import CoreTypes
public import Logging
import Synchronization

/// Holds the agent's `Sensor`s with their ``SensorIo``s: advertises each sensor when it is
/// registered, answers the Discovers and Queries for sensors, and publishes `Observation`s of
/// their values, periodically or on demand, as coaty-js's `SensorSourceController` does.
///
/// ```swift
/// let sensors = SensorSourceController(
///     agent: agent, sensors: [.init(sensor: thermometer, io: MockSensorIo(value: 21.5), publication: .channel(every: .seconds(1)))])
/// try await sensors.publishObservation(of: thermometer.objectID, as: .advertise)   // one more, now
/// ```
///
/// - An observation goes out as a Channel event on the channel id ``channelID`` gives (by default
///   the sensor's object id), or as an Advertise event of object type `coaty.sensorThings.Observation`.
/// - A Discover by object id resolves that registered sensor; a Discover by object types that
///   include `coaty.sensorThings.Sensor` resolves every registered sensor, one Resolve each.
/// - A Query by object types that include `coaty.sensorThings.Sensor` gets one Retrieve with the
///   sensors its filter's conditions match (ordering and paging are not applied, as in coaty-js),
///   unless none do.
///
/// Periodic publication runs on the `clock` given to the initializer, so tests can drive it.
public final class SensorSourceController: Controller, TaskRunningController {
    /// The options of a ``SensorSourceController``; every option defaults to `false` (coaty-js's names).
    public struct Options: Sendable, Decodable {
        /// Discover events are not answered.
        public var ignoreSensorDiscoverEvents: Bool
        /// Query events are not answered.
        public var ignoreSensorQueryEvents: Bool
        /// A sensor is not advertised when it is registered.
        public var skipSensorAdvertise: Bool
        /// A sensor is not deadvertised when it is unregistered.
        public var skipSensorDeadvertise: Bool

        /// Creates options.
        public init(
            ignoreSensorDiscoverEvents: Bool = false, ignoreSensorQueryEvents: Bool = false,
            skipSensorAdvertise: Bool = false, skipSensorDeadvertise: Bool = false
        ) {
            self.ignoreSensorDiscoverEvents = ignoreSensorDiscoverEvents
            self.ignoreSensorQueryEvents = ignoreSensorQueryEvents
            self.skipSensorAdvertise = skipSensorAdvertise
            self.skipSensorDeadvertise = skipSensorDeadvertise
        }

        private enum CodingKeys: String, CodingKey {
            case ignoreSensorDiscoverEvents, ignoreSensorQueryEvents, skipSensorAdvertise, skipSensorDeadvertise
        }

        /// Decodes the four options; a missing one is `false`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func flag(_ key: CodingKeys) throws -> Bool { try container.decodeIfPresent(Bool.self, forKey: key) ?? false }
            self.init(
                ignoreSensorDiscoverEvents: try flag(.ignoreSensorDiscoverEvents),
                ignoreSensorQueryEvents: try flag(.ignoreSensorQueryEvents),
                skipSensorAdvertise: try flag(.skipSensorAdvertise), skipSensorDeadvertise: try flag(.skipSensorDeadvertise))
        }
    }

    /// How an observation goes out.
    public enum Delivery: Sendable, Hashable {
        /// On the sensor's channel (Channel event `CHN:<channelID>`).
        case channel
        /// As an Advertise event `ADV::coaty.sensorThings.Observation`.
        case advertise
    }

    /// Whether and how a sensor's observations are published by themselves (coaty-js's
    /// `observationPublicationType` with its `samplingInterval`).
    public enum Publication: Sendable, Hashable {
        /// Only on demand.
        case none
        /// Read and advertised every `interval`.
        case advertise(every: Duration)
        /// Read and published on the sensor's channel every `interval`.
        case channel(every: Duration)

        /// How and how often, unless only on demand.
        var periodic: (delivery: Delivery, interval: Duration)? {
            switch self {
            case .none: nil
            case .advertise(let interval): (.advertise, interval)
            case .channel(let interval): (.channel, interval)
            }
        }
    }

    /// A sensor to register when the controller starts (coaty-js's `SensorDefinition`).
    public struct Definition: Sendable {
        /// The sensor.
        public var sensor: Sensor
        /// How its value is read.
        public var io: any SensorIo
        /// Whether its observations are published by themselves.
        public var publication: Publication

        /// Creates a definition.
        public init(sensor: Sensor, io: any SensorIo, publication: Publication = .none) {
            self.sensor = sensor
            self.io = io
            self.publication = publication
        }
    }

    /// The agent that publishes and answers.
    public let agent: Agent
    /// The controller's options.
    public let options: Options
    /// The channel id of a sensor's observations (by default its object id).
    public let channelID: @Sendable (Sensor) -> String
    let logger: Logger
    let tasks = ControllerTasks()
    /// Runs a body every interval on the clock given to the initializer, until cancelled.
    let repeating: @Sendable (Duration, () async -> Void) async -> Void
    private let definitions: [Definition]
    private let state = Mutex(State())
    private let responders = Mutex<[InlineResponder]>([])

    struct Registered {
        var definition: Definition
        /// Ends the periodic publication.
        var stop: AsyncStream<Void>.Continuation?
        var valueObservers: [Int: AsyncStream<JSONValue>.Continuation] = [:]
    }

    struct State {
        var sensors: [String: Registered] = [:]
        /// Sensor ids in the order they were registered.
        var order: [String] = []
        var nextObserver = 0

        var registeredSensors: [Sensor] { order.compactMap { sensors[$0]?.definition.sensor } }
    }

    /// Creates a controller for `agent` that registers `sensors` when it starts.
    ///
    /// - Parameters:
    ///   - agent: the agent that publishes and answers.
    ///   - sensors: the sensors registered in ``initialize()``.
    ///   - options: the controller's options.
    ///   - clock: the clock of periodic publication; tests pass a manual one.
    ///   - channelID: the channel id of a sensor's observations (coaty-js's `getChannelId`).
    ///   - logger: where failed periodic publications are logged (at debug).
    public init(
        agent: Agent, sensors: [Definition] = [], options: Options = Options(),
        clock: some Clock<Duration> = ContinuousClock(),
        channelID: @escaping @Sendable (Sensor) -> String = { $0.objectID }, logger: Logger = Logger.current
    ) {
        self.agent = agent
        self.definitions = sensors
        self.options = options
        repeating = { interval, body in await Self.repeatEvery(interval, on: clock, body) }
        self.channelID = channelID
        self.logger = logger
    }

    /// Starts answering Discovers and Queries, then registers the sensors given to the initializer.
    public func initialize() async throws {
        var started: [InlineResponder] = []
        if !options.ignoreSensorDiscoverEvents {
            started.append(try await agent.startServingDiscover { [self] request in
                try Self.resolve(request, from: registeredSensors)
            })
        }
        if !options.ignoreSensorQueryEvents {
            started.append(try await agent.startServingQuery { [self] request in
                try Self.retrieve(request, from: registeredSensors)
            })
        }
        responders.withLock { $0 = started }
        for definition in definitions { try register(definition) }
    }

    /// Ends periodic publication and stops answering.
    public func willStop() async throws {
        tasks.finish()
        for responder in responders.withLock({ $0 }) { responder.cancel() }
        let observers = state.withLock { state in state.sensors.values.flatMap { $0.valueObservers.values } }
        for observer in observers { observer.finish() }
    }

    // MARK: - Registration

    /// The registered sensors, in the order they were registered.
    public var registeredSensors: [Sensor] { state.withLock { $0.registeredSensors } }

    /// Whether a sensor with this object id is registered.
    public func isRegistered(_ sensorID: String) -> Bool { state.withLock { $0.sensors[sensorID] != nil } }

    /// The registered sensor with this object id, if any.
    public func sensor(_ sensorID: String) -> Sensor? { state.withLock { $0.sensors[sensorID]?.definition.sensor } }

    /// The IO of the registered sensor with this object id, if any.
    public func sensorIo(_ sensorID: String) -> (any SensorIo)? {
        state.withLock { $0.sensors[sensorID]?.definition.io }
    }

    func definition(_ sensorID: String) -> Definition? { state.withLock { $0.sensors[sensorID]?.definition } }

    /// Registers a sensor with its IO; does nothing when a sensor with its object id is registered.
    ///
    /// The sensor is advertised (unless ``Options/skipSensorAdvertise``), and its observations are
    /// published every interval of `publication`, the first one interval from now.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidConfiguration` when the interval
    ///   of `publication` is not positive; the errors of ``Agent/advertise(_:privateData:)``.
    public func register(_ sensor: Sensor, io: any SensorIo, publication: Publication = .none) throws {
        try register(Definition(sensor: sensor, io: io, publication: publication))
    }

    /// Registers a sensor of a ``Definition`` (see ``register(_:io:publication:)``).
    public func register(_ definition: Definition) throws {
        let sensorID = definition.sensor.objectID
        let periodic = definition.publication.periodic
        if let periodic, periodic.interval <= .zero {
            throw AgentError(
                code: .invalidConfiguration,
                detail: "sensor '\(sensorID)': the publication interval must be positive, found \(periodic.interval)")
        }
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        let isNew = state.withLock { state in
            guard state.sensors[sensorID] == nil else { return false }
            state.sensors[sensorID] = Registered(definition: definition, stop: periodic == nil ? nil : stop)
            state.order.append(sensorID)
            return true
        }
        guard isNew else { return }
        if let periodic {
            tasks.add { [self] in
                await race({ await self.publishPeriodically(sensorID, as: periodic.delivery, every: periodic.interval) }, until: stopped)
            }
        }
        if !options.skipSensorAdvertise { try agent.advertise(definition.sensor) }
    }

    /// Unregisters a sensor: ends its periodic publication and its value observations, and
    /// deadvertises it (unless ``Options/skipSensorDeadvertise``).
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when no sensor with this
    ///   object id is registered; the errors of ``Agent/deadvertise(_:)``.
    public func unregister(_ sensorID: String) throws {
        let removed = state.withLock { state -> Registered? in
            guard let removed = state.sensors.removeValue(forKey: sensorID) else { return nil }
            state.order.removeAll { $0 == sensorID }
            return removed
        }
        guard let removed else { throw Self.notRegistered(sensorID) }
        removed.stop?.finish()
        for observer in removed.valueObservers.values { observer.finish() }
        if !options.skipSensorDeadvertise { try agent.deadvertise([sensorID]) }
    }

    static func notRegistered(_ sensorID: String) -> AgentError {
        AgentError(
            code: .invalidEvent,
            detail: "no sensor '\(sensorID)' is registered with this SensorSourceController; register it first")
    }

    // MARK: - Values

    /// Observes the values read for a sensor's observations while `body` runs (values read with
    /// ``SensorIo/read()`` by the application are not included); the stream ends when the sensor
    /// is unregistered or the controller stops.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when the sensor is not
    ///   registered; what `body` throws.
    public func observeValues<Result>(
        of sensorID: String, isolation: isolated (any Actor)? = #isolation,
        _ body: (AsyncStream<JSONValue>) async throws -> Result
    ) async throws -> Result {
        let (values, continuation) = AsyncStream.makeStream(of: JSONValue.self)
        let key = state.withLock { state -> Int? in
            guard state.sensors[sensorID] != nil else { return nil }
            state.nextObserver += 1
            state.sensors[sensorID]?.valueObservers[state.nextObserver] = continuation
            return state.nextObserver
        }
        guard let key else { throw Self.notRegistered(sensorID) }
        defer {
            state.withLock { _ = $0.sensors[sensorID]?.valueObservers.removeValue(forKey: key) }
            continuation.finish()
        }
        return try await body(values)
    }

    func valueRead(_ value: JSONValue, for sensorID: String) {
        let observers = state.withLock { $0.sensors[sensorID].map { Array($0.valueObservers.values) } ?? [] }
        for observer in observers { observer.yield(value) }
    }
}
