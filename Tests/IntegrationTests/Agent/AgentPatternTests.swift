import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// A registered application type used across the agent tests.
struct Light: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Light"
    var objectID = ObjectID.make()
    var name: String
    var isOn: Bool
    var brightness: Double

    /// A registry that knows `Light`.
    static func registry() throws -> ObjectTypeRegistry {
        var registry = ObjectTypeRegistry()
        try registry.register(Light.self)
        return registry
    }
}

@Suite(.timeLimit(.minutes(1)))
struct AgentPatternTests {
    @Test func advertiseReachesAnObserverAsTheRegisteredType() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker), registry: Light.registry())
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker), registry: Light.registry())
            try await RunningAgents.run([a, b]) {
                let events = try await b.observeAdvertise(objectType: Light.objectType)
                let light = Light(name: "Desk lamp", isOn: true, brightness: 0.8)
                try a.advertise(light)
                var iterator = events.makeAsyncIterator()
                let received = try #require(await iterator.next())
                #expect(received.event.object as? Light == light)
                #expect(received.sourceID == a.identity.objectID)
                #expect(received.topic.eventTypeFilter == ":com.example.Light")
            }
        }
    }

    @Test func observingACoreTypeGetsEveryObjectOnItsTopic() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker), registry: Light.registry())
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let events = try await b.observeAdvertise(coreType: .coatyObject)
                try a.advertise(Light(name: "L", isOn: false, brightness: 0))
                var iterator = events.makeAsyncIterator()
                let received = try #require(await iterator.next())
                // B does not know Light: the object arrives as its core type with the rest in custom.
                let object = try #require(received.event.object as? BaseObject)
                #expect(object.objectType == Light.objectType)
                #expect(object.custom["isOn"] == false)
                #expect(object.custom["brightness"] == 0)
            }
        }
    }

    @Test func discoverResolvesTheIdentitiesOfEveryAgent() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let responses = try await a.discover(Discover(coreTypes: [.identity]), timeout: .seconds(30))
                var names: Set<String> = []
                for try await resolve in responses {
                    names.insert(resolve.event.object?.name ?? "?")
                    if names.count == 2 { break }
                }
                #expect(names == ["A", "B"])
            }
        }
    }

    @Test func discoverByObjectIDFindsOneAgent() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let resolve = try await a.discover(Discover(objectID: b.identity.objectID), timeout: .seconds(30)).first()
                #expect(resolve.event.object?.objectID == b.identity.objectID)
                #expect(resolve.sourceID == b.identity.objectID)
            }
        }
    }

    @Test func queryRetrievesWhatTheResponderSelects() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker), registry: Light.registry())
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker), registry: Light.registry())
            let lights = [
                Light(name: "one", isOn: true, brightness: 0.2), Light(name: "two", isOn: true, brightness: 0.9),
                Light(name: "three", isOn: false, brightness: 1),
            ]
            try await RunningAgents.run([a, b]) {
                let queries = try await b.observeQuery()
                let responder = Task {
                    for try await request in queries {
                        let objects = try lights.map { try $0.jsonObject() }
                        let selected = try request.event.filter.apply(to: objects)
                        let matching = selected.compactMap { row in lights.first { row["objectId"] == .string($0.objectID) } }
                        try request.respond(Retrieve(objects: matching))
                    }
                }
                defer { responder.cancel() }
                let query = Query(
                    objectTypes: [Light.objectType],
                    filter: .where("isOn", .equals(true)).orderBy("brightness", .descending))
                let retrieve = try await a.query(query, timeout: .seconds(30)).first()
                #expect(retrieve.event.objects.map(\.name) == ["two", "one"])
            }
        }
    }

    @Test func updateOfACustomTypeIsCompletedOnBothTopics() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker), registry: Light.registry())
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker), registry: Light.registry())
            try await RunningAgents.run([a, b]) {
                let byType = try await b.observeUpdate(objectType: Light.objectType)
                let byCore = try await b.observeUpdate(coreType: .coatyObject)
                let responder = Task {
                    await withTaskGroup(of: Void.self) { group in
                        for stream in [byType, byCore] {
                            group.addTask {
                                while let request = try? await stream.first(where: { _ in true }) { try? request.respond(Complete(object: request.event.object)) }
                            }
                        }
                    }
                }
                defer { responder.cancel() }
                let light = Light(name: "L", isOn: true, brightness: 0.3)
                var completes: [String] = []
                for try await complete in try await a.update(Update(object: light), timeout: .seconds(30)) {
                    completes.append(complete.topic.correlationID ?? "")
                    if completes.count == 2 { break }
                }
                #expect(Set(completes).count == 2, "one Complete per publication, each with its own correlation id")
            }
        }
    }

    @Test func callReturnsResultsAndErrorsAndRespectsContextFilters() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let room = BaseObject(objectType: "com.example.Room", name: "Room 1", custom: ["floor": 3])
                let calls = try await b.observeCall("com.example.switch", context: room)
                let responder = Task {
                    for try await request in calls {
                        if request.event.parameter(named: "state") == "on" {
                            try request.respond(Return(result: true, executionInfo: ["durationMs": 1]))
                        } else {
                            try request.respond(Return(error: .invalidParameters))
                        }
                    }
                }
                defer { responder.cancel() }
                let onFloor3 = ContextFilter.where("floor", .equals(3))
                let ok = try await a.call(
                    Call(operation: "com.example.switch", parameters: .named(["state": "on"]), filter: onFloor3),
                    timeout: .seconds(30)
                ).first()
                #expect(ok.event.result == true)
                #expect(ok.event.executionInfo == ["durationMs": 1])
                let failed = try await a.call(
                    Call(operation: "com.example.switch", parameters: .named(["state": "??"]), filter: onFloor3),
                    timeout: .seconds(30)
                ).first()
                #expect(failed.event.error == .invalidParameters)
                // A filter the context does not match is not delivered: the request times out empty.
                let none = try await (a.call(
                    Call(operation: "com.example.switch", parameters: .named(["state": "on"]),
                        filter: .where("floor", .equals(4))),
                    timeout: .milliseconds(300))).collect()
                #expect(none.isEmpty)
            }
        }
    }

    @Test func rawMessagesReachRawObserversButCoatyTopicsNever() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let raw = try await b.observeRaw("#")
                try a.advertise(Identity(name: "not raw"))
                try a.publish(Raw(topic: "sensors/1/temp", payload: [0x32, 0x31, 0x00, 0xFF]))
                var iterator = raw.makeAsyncIterator()
                let message = try #require(await iterator.next())
                #expect(message.topic == "sensors/1/temp")
                #expect(message.payload == [0x32, 0x31, 0x00, 0xFF])
                #expect(throws: AgentError.self) { try a.publish(Raw(topic: "coaty/x", payload: [])) }
            }
        }
    }

    @Test func channelDeliversObjectsToItsObservers() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let channel = try await b.observeChannel("sensors.floor1")
                let reading = BaseObject(objectType: "com.example.Reading", name: "t1", custom: ["value": 21.5])
                try a.publish(Channel(id: "sensors.floor1", objects: [reading]))
                var iterator = channel.makeAsyncIterator()
                let received = try #require(await iterator.next())
                #expect(received.event.objects.first?.custom["value"] == 21.5)
            }
        }
    }

    @Test func gracefulStopDeadvertisesTheIdentity() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let watcher = try Agent(configuration: RunningAgents.configuration("W", broker: broker))
            try await RunningAgents.run([watcher]) {
                let deadvertised = try await watcher.observeDeadvertise()
                try await RunningAgents.run([a]) {}
                var iterator = deadvertised.makeAsyncIterator()
                let event = try #require(await iterator.next())
                #expect(event.event.objectIDs == [a.identity.objectID])
                #expect(event.sourceID == a.identity.objectID)
            }
        }
    }

    @Test func publicationsMadeBeforeConnectingArriveInOrder() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([b]) {
                let events = try await b.observeChannel("queued")
                for i in 0..<50 {
                    try a.publish(Channel(id: "queued", object: BaseObject(name: "\(i)")))
                }
                try await RunningAgents.run([a]) {
                    var iterator = events.makeAsyncIterator()
                    for i in 0..<50 {
                        let event = try #require(await iterator.next())
                        #expect(event.event.objects.first?.name == "\(i)")
                    }
                }
            }
        }
    }
}
