public import CoreTypes

/// A `Sensor` that a ``ThingSensorObservationObserverController`` has registered, with the `Thing`
/// it belongs to (coaty-js adds the thing to the sensor object as a property `thing`).
public struct RegisteredSensor: Sendable, Hashable {
    /// The sensor, as last advertised or retrieved.
    public var sensor: Sensor
    /// The thing whose `objectID` is the sensor's `parentObjectID`.
    public var thing: Thing

    /// Pairs a sensor with its thing.
    public init(sensor: Sensor, thing: Thing) {
        self.sensor = sensor
        self.thing = thing
    }
}

/// A change of the sensors a ``ThingSensorObservationObserverController`` has registered (coaty-js's
/// `RegisteredSensorsChangeInfo`).
public struct RegisteredSensorsChange: Sendable, Hashable {
    /// Sensors registered by this change.
    public var added: [RegisteredSensor]
    /// Sensors registered before and removed by this change.
    public var removed: [RegisteredSensor]
    /// Sensors registered before and received again (some of their properties may have changed).
    public var changed: [RegisteredSensor]
    /// Every sensor registered after this change, in the order they were first registered.
    public var total: [RegisteredSensor]

    /// Creates a change; every list defaults to empty.
    public init(
        added: [RegisteredSensor] = [], removed: [RegisteredSensor] = [], changed: [RegisteredSensor] = [],
        total: [RegisteredSensor] = []
    ) {
        self.added = added
        self.removed = removed
        self.changed = changed
        self.total = total
    }
}

/// An `Observation` of a registered sensor, with that sensor and its thing (coaty-js's
/// `{ obs, sensor }`).
public struct SensorObservation: Sendable, Hashable {
    /// The observation, whose `parentObjectID` is the sensor's `objectID`.
    public var observation: Observation
    /// The sensor as registered when the observation arrived, with its thing.
    public var sensor: RegisteredSensor
}
