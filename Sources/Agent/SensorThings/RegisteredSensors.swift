import CoreTypes

/// The sensors a ``ThingSensorObservationObserverController`` has registered, in the order they
/// were first registered: its bookkeeping, without I/O or locks, each step returning the change
/// to report.
struct RegisteredSensors {
    private var sensors: [String: RegisteredSensor] = [:]
    private var order: [String] = []

    /// Every registered sensor, in the order they were first registered.
    var total: [RegisteredSensor] { order.compactMap { sensors[$0] } }

    /// The registered sensor with this object id, if any.
    subscript(sensorID: String) -> RegisteredSensor? { sensors[sensorID] }

    /// Registers `sensor` of `thing`: added when its object id is new, else changed (replacing the
    /// earlier one in place).
    mutating func register(_ sensor: Sensor, of thing: Thing) -> RegisteredSensorsChange {
        let entry = RegisteredSensor(sensor: sensor, thing: thing)
        let isKnown = sensors.updateValue(entry, forKey: sensor.objectID) != nil
        if !isKnown { order.append(sensor.objectID) }
        return RegisteredSensorsChange(added: isKnown ? [] : [entry], changed: isKnown ? [entry] : [], total: total)
    }

    /// Removes the sensors whose thing's `parentObjectID` is `objectID` (coaty-js's reaction to a
    /// Deadvertise); `nil` when there is none.
    mutating func removeSensors(ofThingsWithParent objectID: String) -> RegisteredSensorsChange? {
        let removed = total.filter { $0.thing.parentObjectID == objectID }
        guard !removed.isEmpty else { return nil }
        for entry in removed { sensors[entry.sensor.objectID] = nil }
        order.removeAll { sensors[$0] == nil }
        return RegisteredSensorsChange(removed: removed, total: total)
    }

    /// Removes every sensor (when the controller stops); the change is reported even when empty.
    mutating func removeAll() -> RegisteredSensorsChange {
        defer { self = RegisteredSensors() }
        return RegisteredSensorsChange(removed: total)
    }
}
