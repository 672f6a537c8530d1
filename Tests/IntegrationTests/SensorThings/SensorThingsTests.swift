import Agent
import CoreTypes
import Synchronization
import Testing
import TestSupport

/// The SensorThings controllers on a real broker: a source agent with sensors and an observer
/// agent, as coaty-js's `SensorSourceController` and `SensorObserverController` work together.
@Suite(.timeLimit(.minutes(1)))
struct SensorThingsTests {
    static let kitchenID = "0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3"
    static let thermometerID = "5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4"

    static func sensor(_ id: String = thermometerID, name: String = "Thermometer", thing: String = kitchenID) -> Sensor {
        Sensor(
            objectID: id, name: name, description: "A thermometer", encodingType: .pdf, metadata: "datasheet.pdf",
            unitOfMeasurement: UnitOfMeasurement(name: "Degree Celsius", symbol: "degC"), observationType: .measurement,
            observedProperty: ObservedProperty(name: "Temperature", definition: "", description: "Air temperature"),
            parentObjectID: thing)
    }

    /// A container named `name` with `controllers`; `typed` registers the SensorThings types.
    static func container(
        _ name: String, broker: TestBroker, _ controllers: [ControllerComponent], typed: Bool = false
    ) throws -> Container {
        try Container(
            components: Components(controllers: controllers, objectTypes: typed ? SensorThings.objectTypes : []),
            configuration: RunningContainers.configuration(name, broker: broker))
    }

    @Test func periodicChannelObservationsFollowTheInjectedClock() async throws {
        try await TestBroker.withBroker { broker in
            let clock = ManualClock()
            let io = MockSensorIo()
            let definition = SensorSourceController.Definition(
                sensor: Self.sensor(), io: io, publication: .channel(every: .seconds(1)))
            let source = try Self.container("Source", broker: broker, [.sensorSource(sensors: [definition], clock: clock)])
            let observing = try Self.container("Observer", broker: broker, [.sensorObserver()])
            let observer = try #require(observing.controller(SensorObserverController.self))
            try await RunningContainers.run(observing) {
                try await observer.observeChanneledObservations(of: Self.thermometerID) { observations in
                    try await RunningContainers.run(source) {
                        var next = observations.makeAsyncIterator()
                        await clock.waitForSleepers()
                        try await io.write(21.5)
                        clock.advance(by: .seconds(1))
                        let first = try #require(try await next.next())
                        #expect(first.result == 21.5)
                        #expect(first.parentObjectID == Self.thermometerID)
                        #expect(first.name == "Observation of Thermometer")
                        #expect(first.phenomenonTime == first.resultTime)
                        try await io.write(22)
                        clock.advance(by: .seconds(2))  // two more periods: two more observations
                        #expect(try await next.next()?.result == 22)
                        #expect(try await next.next()?.result == 22)
                    }
                }
            }
        }
    }

    @Test func onDemandObservationsAreAdvertisedOrChanneledAndTheirValuesObserved() async throws {
        try await TestBroker.withBroker { broker in
            let io = MockSensorIo(value: ["celsius": 19])
            let source = try Self.container("Source", broker: broker, [.sensorSource()])
            let observing = try Self.container("Observer", broker: broker, [.sensorObserver()], typed: true)
            let sensors = try #require(source.controller(SensorSourceController.self))
            let observer = try #require(observing.controller(SensorObserverController.self))
            try await RunningContainers.run(source) {
                try await RunningContainers.run(observing) {
                    try sensors.register(Self.sensor(), io: io)
                    try await sensors.observeValues(of: Self.thermometerID) { values in
                        var value = values.makeAsyncIterator()
                        try await observer.observeAdvertisedObservations(of: Self.thermometerID) { advertised in
                            var next = advertised.makeAsyncIterator()
                            let sent = try await sensors.publishObservation(
                                of: Self.thermometerID, as: .advertise, resultQuality: ["calibrated"],
                                validTime: EpochInterval(duration: 60_000), parameters: ["room": "kitchen"])
                            #expect(try await next.next() == sent)
                            #expect(await value.next(isolation: #isolation) == ["celsius": 19])
                        }
                        try await observer.observeChanneledObservations(of: Self.thermometerID, channelID: "x") { _ in
                            // A channel other than the sensor's gets nothing; the sensor's own is used below.
                        }
                        try await observer.observeChanneledObservations(of: Self.thermometerID) { channeled in
                            var next = channeled.makeAsyncIterator()
                            let sent = try await sensors.publishObservation(
                                of: Self.thermometerID, as: .channel, featureOfInterestID: "f1")
                            #expect(try await next.next() == sent)
                            #expect(await value.next(isolation: #isolation) == ["celsius": 19])
                        }
                    }
                }
            }
        }
    }

    @Test func discoversAndQueriesAreAnsweredWithTheRegisteredSensors() async throws {
        try await TestBroker.withBroker { broker in
            let garageID = "c0d1e2f3-a4b5-4c6d-8e7f-8091a2b3c4d5"
            let hygrometer = Self.sensor("1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9", name: "Hygrometer")
            let garage = Self.sensor("2e3d4c5b-6a79-4887-96a5-b4c3d2e1f0a9", name: "Garage", thing: garageID)
            let definitions = [Self.sensor(), hygrometer, garage].map {
                SensorSourceController.Definition(sensor: $0, io: MockSensorIo())
            }
            let source = try Self.container("Source", broker: broker, [.sensorSource(sensors: definitions)])
            let observing = try Self.container("Observer", broker: broker, [.sensorObserver()])
            let observer = try #require(observing.controller(SensorObserverController.self))
            try await RunningContainers.run(source) {
                try await RunningContainers.run(observing) {
                    var discovered: Set<String> = []
                    for try await sensor in try await observer.discoverSensors(timeout: .seconds(30)) {
                        discovered.insert(sensor.objectID)
                        if discovered.count == 3 { break }
                    }
                    #expect(discovered == Set(definitions.map(\.sensor.objectID)))

                    var retrieved = try await observer.querySensors(ofThing: Self.kitchenID, timeout: .seconds(30))
                        .makeAsyncIterator()
                    let kitchen = try #require(try await retrieved.next())
                    #expect(Set(kitchen.map(\.objectID)) == [Self.thermometerID, hygrometer.objectID])

                    let byID = try await observing.agent.discover(Discover(objectID: garage.objectID), timeout: .seconds(30))
                    #expect(try await byID.first().event.object?.name == "Garage")
                }
            }
        }
    }

    @Test func registeringAdvertisesAndUnregisteringDeadvertises() async throws {
        try await TestBroker.withBroker { broker in
            let source = try Self.container("Source", broker: broker, [.sensorSource()])
            let observing = try Self.container("Observer", broker: broker, [.sensorObserver()])
            let sensors = try #require(source.controller(SensorSourceController.self))
            let observer = try #require(observing.controller(SensorObserverController.self))
            try await RunningContainers.run(source) {
                try await RunningContainers.run(observing) {
                    try await observing.agent.observeDeadvertise { deadvertised in
                        try await observer.observeAdvertisedSensors { advertised in
                            var next = advertised.makeAsyncIterator()
                            try sensors.register(Self.sensor(), io: MockSensorIo())
                            try sensors.register(Self.sensor(name: "Twice"), io: MockSensorIo())  // same id: ignored
                            #expect(try await next.next() == Self.sensor())
                            #expect(sensors.registeredSensors == [Self.sensor()])
                        }
                        try sensors.unregister(Self.thermometerID)
                        var next = deadvertised.makeAsyncIterator()
                        #expect(try await next.next()?.event.objectIDs == [Self.thermometerID])
                        #expect(sensors.isRegistered(Self.thermometerID) == false)
                    }
                    let unknown = #expect(throws: AgentError.self) { try sensors.unregister(Self.thermometerID) }
                    #expect(unknown?.code == .invalidEvent)
                    let zero = #expect(throws: AgentError.self) {
                        try sensors.register(Self.sensor(), io: MockSensorIo(), publication: .advertise(every: .zero))
                    }
                    #expect(zero?.code == .invalidConfiguration)
                }
            }
        }
    }

    @Test func thingsAreDiscoveredAndQueriedByLocation() async throws {
        try await TestBroker.withBroker { broker in
            let locationID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
            let kitchen = Thing(objectID: Self.kitchenID, name: "Kitchen", description: "The kitchen", locationID: locationID)
            let provider = try Self.container("Provider", broker: broker, [.objectProvider(objects: [kitchen])])
            let observing = try Self.container("Observer", broker: broker, [.thingObserver()], typed: true)
            let things = try #require(observing.controller(ThingObserverController.self))
            try await RunningContainers.run(provider) {
                try await RunningContainers.run(observing) {
                    var discovered = try await things.discoverThings(timeout: .seconds(30)).makeAsyncIterator()
                    #expect(try await discovered.next() == kitchen)
                    var queried = try await things.queryThings(atLocation: locationID, timeout: .seconds(30))
                        .makeAsyncIterator()
                    #expect(try await queried.next() == [kitchen])
                }
            }
        }
    }

    /// A source agent with sensors on a manual clock, a provider agent with two things (its
    /// identity their parent), and an observer agent with a ThingSensorObservationObserverController.
    @Test func thingSensorObservationObserverRegistersSensorsAndPairsTheirObservations() async throws {
        try await TestBroker.withBroker { broker in
            let clock = ManualClock()
            let ids = (hygrometer: "1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9", ignored: "3d4c5b6a-7988-4a96-b5c4-d3e2f1a0b9c8")
            let (thermometer, hygrometer) = (Self.sensor(), Self.sensor(ids.hygrometer, name: "Hygrometer"))
            let ignored = Self.sensor(ids.ignored, name: "Ignored")
            let garageID = "c0d1e2f3-a4b5-4c6d-8e7f-8091a2b3c4d5"
            let garageSensor = Self.sensor("2e3d4c5b-6a79-4887-96a5-b4c3d2e1f0a9", name: "Garage door", thing: garageID)
            let definitions = [
                SensorSourceController.Definition(sensor: thermometer, io: MockSensorIo(value: 21), publication: .channel(every: .seconds(1))),
                SensorSourceController.Definition(sensor: ignored, io: MockSensorIo()),
                SensorSourceController.Definition(sensor: hygrometer, io: MockSensorIo(value: 40), publication: .channel(every: .seconds(1))),
                SensorSourceController.Definition(sensor: garageSensor, io: MockSensorIo()),
            ]
            let source = try Self.container("Source", broker: broker, [.sensorSource(sensors: definitions, clock: clock)])
            let providing = RunningContainers.configuration("Provider", broker: broker)
            let owner = providing.identity.objectID
            let kitchen = Thing(objectID: Self.kitchenID, name: "Kitchen", description: "", parentObjectID: owner)
            let garage = Thing(objectID: garageID, name: "Garage", description: "", parentObjectID: owner)
            let provider = try Container(
                components: Components(controllers: [.objectProvider(objects: [garage, kitchen])]),
                configuration: providing)
            let filteredThings = Mutex<[String]>([])
            let observing = try Self.container(
                "Observer", broker: broker,
                [
                    .thingSensorObservationObserver(
                        thingFilter: { thing in
                            filteredThings.withLock { $0.append(thing.name) }
                            return thing.name != "Garage"
                        },
                        sensorFilter: { sensor, _ in sensor.name != "Ignored" })
                ])
            let observer = try #require(observing.controller(ThingSensorObservationObserverController.self))
            let sensors = try #require(source.controller(SensorSourceController.self))
            let registered: @Sendable (Sensor) -> RegisteredSensor = { RegisteredSensor(sensor: $0, thing: kitchen) }

            try await RunningContainers.run(source) {
                try await observer.observeRegisteredSensors { changes in
                    try await observer.observeSensorObservations { observations in
                        // One iterator at a time, each in the closure that uses it.
                        var change = changes.makeAsyncIterator()
                        #expect(await change.next() == RegisteredSensorsChange())  // the state before any change
                        try await RunningContainers.run(observing) {
                            try await RunningContainers.run(provider) {
                                var change = changes.makeAsyncIterator()
                                var observation = observations.makeAsyncIterator()
                                // The advertised things: the garage filtered out, the kitchen's sensors
                                // queried (the ignored one filtered out), in the source's order.
                                #expect(
                                    await change.next()
                                        == RegisteredSensorsChange(
                                            added: [registered(thermometer)], total: [registered(thermometer)]))
                                #expect(
                                    await change.next()
                                        == RegisteredSensorsChange(
                                            added: [registered(hygrometer)],
                                            total: [registered(thermometer), registered(hygrometer)]))
                                #expect(filteredThings.withLock { $0 } == ["Garage", "Kitchen"])

                                // Their channeled observations, each paired with its sensor and thing.
                                await clock.waitForSleepers(2)
                                clock.advance(by: .seconds(1))
                                var paired: [String: SensorObservation] = [:]
                                for _ in 0..<2 {
                                    let next = try #require(await observation.next(isolation: #isolation))
                                    paired[next.sensor.sensor.objectID] = next
                                }
                                #expect(paired[Self.thermometerID]?.observation.result == 21)
                                #expect(paired[Self.thermometerID]?.sensor == registered(thermometer))
                                #expect(paired[ids.hygrometer]?.observation.result == 40)
                                #expect(paired[ids.hygrometer]?.observation.parentObjectID == ids.hygrometer)

                                // A sensor registered later is advertised: added.
                                let barometer = Self.sensor("4c5b6a79-8897-4a5b-a4c3-e2f1a0b9c8d7", name: "Barometer")
                                try sensors.register(barometer, io: MockSensorIo())
                                let added = await change.next()
                                #expect(added?.added == [registered(barometer)])
                                #expect(added?.total.count == 3)

                                // A sensor advertised again: changed in place, its observations paired with it.
                                let renamed = Self.sensor(name: "Thermometer 2")
                                try source.agent.advertise(renamed)
                                #expect(
                                    await change.next()
                                        == RegisteredSensorsChange(
                                            changed: [registered(renamed)],
                                            total: [registered(renamed), registered(hygrometer), registered(barometer)]))
                                try await sensors.publishObservation(of: Self.thermometerID, as: .channel)
                                #expect(await observation.next(isolation: #isolation)?.sensor == registered(renamed))
                            }
                            // The provider stopped: its identity's Deadvertise removes the sensors of its things.
                            var change = changes.makeAsyncIterator()
                            let removed = await change.next()
                            #expect(Set(removed?.removed.map(\.sensor.objectID) ?? []) == [Self.thermometerID, ids.hygrometer, "4c5b6a79-8897-4a5b-a4c3-e2f1a0b9c8d7"])
                            #expect(removed?.total == [])
                            #expect(observer.registeredSensors.isEmpty)
                        }
                        // The observer stopped: every sensor (none left) reported removed, then the end.
                        change = changes.makeAsyncIterator()
                        #expect(await change.next() == RegisteredSensorsChange())
                        #expect(await change.next() == nil)
                    }
                }
            }
        }
    }
}
