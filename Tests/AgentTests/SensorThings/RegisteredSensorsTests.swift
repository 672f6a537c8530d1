@testable import Agent
import CoreTypes
import Testing

@Suite struct RegisteredSensorsTests {
    static let owner = "7d8e9fa0-b1c2-4d3e-8f40-5a6b7c8d9e0f"
    static let kitchen = Thing(name: "Kitchen", description: "", parentObjectID: owner)
    static let garage = Thing(name: "Garage", description: "", parentObjectID: "9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b")

    static func sensor(_ name: String, of thing: Thing) -> Sensor {
        Sensor(
            name: name, description: "", encodingType: .pdf, metadata: "",
            unitOfMeasurement: UnitOfMeasurement(), observationType: .measurement,
            observedProperty: ObservedProperty(name: name, definition: "", description: ""),
            parentObjectID: thing.objectID)
    }

    @Test func aNewSensorIsAddedAndAKnownOneChangedInPlace() {
        var registered = RegisteredSensors()
        let thermometer = Self.sensor("Thermometer", of: Self.kitchen)
        let hygrometer = Self.sensor("Hygrometer", of: Self.kitchen)
        let first = RegisteredSensor(sensor: thermometer, thing: Self.kitchen)
        let second = RegisteredSensor(sensor: hygrometer, thing: Self.kitchen)
        #expect(registered.register(thermometer, of: Self.kitchen) == RegisteredSensorsChange(added: [first], total: [first]))
        #expect(registered.register(hygrometer, of: Self.kitchen).total == [first, second])

        var renamed = thermometer
        renamed.name = "Thermometer 2"
        let changed = RegisteredSensor(sensor: renamed, thing: Self.kitchen)
        #expect(
            registered.register(renamed, of: Self.kitchen)
                == RegisteredSensorsChange(changed: [changed], total: [changed, second]))
        #expect(registered[thermometer.objectID] == changed)
    }

    @Test func aDeadvertisedParentRemovesTheSensorsOfItsThingsOnly() {
        var registered = RegisteredSensors()
        let thermometer = Self.sensor("Thermometer", of: Self.kitchen)
        let door = Self.sensor("Door", of: Self.garage)
        _ = registered.register(thermometer, of: Self.kitchen)
        _ = registered.register(door, of: Self.garage)
        let garageEntry = RegisteredSensor(sensor: door, thing: Self.garage)

        #expect(registered.removeSensors(ofThingsWithParent: Self.kitchen.objectID) == nil)  // a thing's own id: nothing
        #expect(
            registered.removeSensors(ofThingsWithParent: Self.owner)
                == RegisteredSensorsChange(
                    removed: [RegisteredSensor(sensor: thermometer, thing: Self.kitchen)], total: [garageEntry]))
        #expect(registered.removeAll() == RegisteredSensorsChange(removed: [garageEntry]))
        #expect(registered.total.isEmpty)
        #expect(registered.removeAll() == RegisteredSensorsChange())  // reported even when empty
    }
}
