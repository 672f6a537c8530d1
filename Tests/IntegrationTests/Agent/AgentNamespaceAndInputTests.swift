import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct AgentNamespaceAndInputTests {
    @Test func namespacesIsolateAndCrossNamespacingWidens() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker, namespace: "plant-a"))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker, namespace: "plant-b"))
            let cross = try Agent(
                configuration: RunningAgents.configuration("C", broker: broker, namespace: "plant-b", crossNamespacing: true))
            try await RunningAgents.run([a, b, cross]) {
                let inB = try await b.observeChannel("news")
                let everywhere = try await cross.observeChannel("news")
                try a.publish(Channel(id: "news", object: BaseObject(name: "from a")))
                var crossIterator = everywhere.makeAsyncIterator()
                let seen = try #require(await crossIterator.next())
                #expect(seen.event.objects.first?.name == "from a")
                #expect(seen.topic.namespace == "plant-a")
                // The broker has routed A's message; a marker published in plant-b after it must be
                // the first thing B's observer sees.
                try cross.publish(Channel(id: "news", object: BaseObject(name: "marker")))
                var bIterator = inB.makeAsyncIterator()
                let first = try #require(await bIterator.next())
                #expect(first.event.objects.first?.name == "marker")
            }
        }
    }

    @Test func responsesTravelInTheRespondersNamespace() async throws {
        try await TestBroker.withBroker { broker in
            let requester = try Agent(
                configuration: RunningAgents.configuration("R", broker: broker, namespace: "x", crossNamespacing: true))
            let responder = try Agent(
                configuration: RunningAgents.configuration("S", broker: broker, namespace: "y", crossNamespacing: true))
            try await RunningAgents.run([requester, responder]) {
                let resolve = try await requester.discover(Discover(objectID: responder.identity.objectID), timeout: .seconds(30)).first()
                #expect(resolve.topic.namespace == "y")
                #expect(resolve.event.object?.name == "S")
            }
        }
    }

    @Test func badInputIsDroppedCountedAndNeverDelivered() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = RunningAgents.configuration("B", broker: broker)
            configuration.maximumPayloadSize = 2_000
            let b = try Agent(configuration: configuration)
            try await RunningAgents.run([b]) {
                let events = try await b.observeAdvertise(coreType: .coatyObject)
                var sender = try TestClient("bad-input-sender", broker: broker.url)
                try await sender.connect()
                let topic = "coaty/3/-/ADV:CoatyObject/sender"
                let valid = #"{"object":{"objectId":"1","objectType":"com.x.T","coreType":"CoatyObject","name":"ok"}}"#
                let bad: [[UInt8]] = [
                    Array("not json".utf8),
                    Array(#"{"object":{"objectId":"1","coreType":"CoatyObject","name":"no type"}}"#.utf8),
                    Array(#"{"object":{"objectId":"1","objectType":"x","coreType":"Nope","name":"n"}}"#.utf8),
                    [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D],
                    Array(valid.utf8) + Array(repeating: 0x20, count: 3_000),
                    Array("[]".utf8),
                ]
                for payload in bad { _ = try sender.client.publish(topic: topic, payload: payload) }
                _ = try sender.client.publish(topic: topic, payload: Array(valid.utf8))
                var iterator = events.makeAsyncIterator()
                let received = try #require(await iterator.next())
                #expect(received.event.object.name == "ok")
                #expect(b.statistics.rejectedPayloads == bad.count)
                sender.client.close()
            }
        }
    }

    /// An observer that opts into dropping loses only its own events; the other observer is never held back.
    @Test func aSlowObserverThatDropsLosesItsOwnEventsOnly() async throws {
        try await TestBroker.withBroker { broker in
            var configuration = RunningAgents.configuration("B", broker: broker)
            configuration.observerBufferSize = 5
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: configuration)
            try await RunningAgents.run([a, b]) {
                let slow = try await b.observeChannel("burst").overflowPolicy(.dropNewest)
                let fast = try await b.observeChannel("burst")
                var fastIterator = fast.makeAsyncIterator()
                // One message at a time: the fast observer reads each before the next is sent, so
                // every drop is the slow observer's.
                for i in 0..<20 {
                    try a.publish(Channel(id: "burst", object: BaseObject(name: "\(i)")))
                    let event = try #require(await fastIterator.next())
                    #expect(event.event.objects.first?.name == "\(i)")
                }
                // The slow observer kept its first five; the rest of its events were dropped and counted.
                var slowIterator = slow.makeAsyncIterator()
                for i in 0..<5 {
                    let event = try #require(await slowIterator.next())
                    #expect(event.event.objects.first?.name == "\(i)")
                }
                #expect(b.statistics.droppedObserverEvents == 15)
            }
        }
    }
}
