import Agent
import CoreTypes
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ObserveAllEventsTests {
    @Test func everyEventOfTheNamespaceArrivesUndecodedInOrder() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            try await RunningAgents.run([a, b]) {
                let all = try await b.observeAllEvents()
                try a.publish(Channel(id: "news", object: Identity(name: "Payload")))
                try a.deadvertise(["gone"])
                let resolve = try await a.discover(Discover(objectID: b.identity.objectID), timeout: .seconds(30))
                    .first()
                #expect(resolve.sourceID == b.identity.objectID)
                var seen: [EventType] = []
                var iterator = all.makeAsyncIterator()
                while seen.count < 4, let message = try await iterator.next() {
                    // Join events of the agents may still be arriving; they are not what this test is about.
                    if message.topic.eventType == .advertise { continue }
                    seen.append(message.topic.eventType)
                    if message.topic.eventType == .channel {
                        #expect(message.sourceID == a.identity.objectID)
                        #expect(message.topic.eventTypeFilter == "news")
                        let json = try JSONValue(parsing: message.payload)
                        #expect(json["object"]?["name"] == "Payload")
                    }
                }
                // The Discover and b's own Resolve to it are on the wire too.
                #expect(seen == [.channel, .deadvertise, .discover, .resolve])
            }
        }
    }

    @Test func otherNamespacesAreNotObservedWithoutCrossNamespacing() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("A", broker: broker, namespace: "other"))
            let b = try Agent(configuration: RunningAgents.configuration("B", broker: broker))
            let c = try Agent(configuration: RunningAgents.configuration("C", broker: broker, crossNamespacing: true))
            try await RunningAgents.run([a, b, c]) {
                let inOwn = try await b.observeAllEvents()
                let inAll = try await c.observeAllEvents()
                try a.publish(Channel(id: "elsewhere", object: Identity(name: "X")))
                try b.publish(Channel(id: "here", object: Identity(name: "Y")))
                var own = inOwn.makeAsyncIterator()
                let next = try await own.next()
                #expect(next?.topic.eventTypeFilter == "here")
                var all = inAll.makeAsyncIterator()
                var filters: Set<String> = []
                while filters.count < 2, let message = try await all.next() {
                    if let filter = message.topic.eventTypeFilter, message.topic.eventType == .channel {
                        filters.insert(filter)
                    }
                }
                #expect(filters == ["elsewhere", "here"])
            }
        }
    }
}
