@testable import Agent
import CoreTypes
import Synchronization
import Testing

@Suite struct RouterTests {
    @Test(arguments: [
        ("coaty/3/-/ADV:Task/+", EventType.advertise, "Task" as String?),
        ("coaty/3/+/ADV::com.example.Light/+", .advertise, ":com.example.Light"),
        ("coaty/3/-/CLL:a.b:c/+/+", .call, "a.b:c"),
        ("coaty/3/ns/DSC/+/+", .discover, nil),
        ("coaty/3/ns/DAD/+", .deadvertise, nil),
    ])
    func routeKeyIsTheEventLevelOfTheFilter(filter: String, eventType: EventType, eventFilter: String?) {
        #expect(Agent.routeKey(of: filter) == RouteKey(eventType: eventType, eventTypeFilter: eventFilter))
    }

    @Test func routeKeyOfAFilterMatchesTheKeyOfAParsedTopic() throws {
        let topic = try #require(try CoatyTopic(parsing: "coaty/3/-/ADV::com.example.Light/5c3e1a2b"))
        let key = Agent.routeKey(of: "coaty/3/-/ADV::com.example.Light/+")
        #expect(key == RouteKey(eventType: topic.eventType, eventTypeFilter: topic.eventTypeFilter))
    }

    @Test func sinksAreFoundByKeyAndRemovedById() {
        var router = Router()
        let key = RouteKey(eventType: .advertise, eventTypeFilter: "Task")
        router.add(Sink(id: 1) { _ in }, for: key)
        router.add(Sink(id: 2) { _ in }, for: key)
        #expect(router.sinks(for: key).map(\.id) == [1, 2])
        #expect(router.sinks(for: RouteKey(eventType: .advertise, eventTypeFilter: "User")).isEmpty)
        router.remove(1, for: key)
        #expect(router.sinks(for: key).map(\.id) == [2])
        router.remove(2, for: key)
        #expect(router.coatyRoutes.isEmpty)
    }

    @Test func targetsOfATopicAreFoundByItsEventType() throws {
        var router = Router()
        router.add(Sink(id: 1) { _ in }, for: RouteKey(eventType: .advertise, eventTypeFilter: ":com.example.Light"))
        router.add(ResponseSink(responseType: .resolve) { _, _ in .accepted }, correlationID: "c1")
        router.addIO(Sink(id: 3) { _ in }, route: "coaty/3/-/IOV/s1")
        func targets(_ name: String) throws -> Router.Targets {
            router.targets(of: try #require(try CoatyTopic(parsing: name)), named: name)
        }
        guard case .events(let events) = try targets("coaty/3/-/ADV::com.example.Light/s1") else {
            Issue.record("an Advertise goes to its observers")
            return
        }
        #expect(events.map(\.id) == [1])
        guard case .response(let sink) = try targets("coaty/3/-/RSV/s2/c1"), let sink else {
            Issue.record("a Resolve goes to the request waiting for its correlation id")
            return
        }
        #expect(sink.responseType == .resolve)
        guard case .response(nil) = try targets("coaty/3/-/RSV/s2/other") else {
            Issue.record("a response nobody waits for has no target")
            return
        }
        guard case .ioValue(let io) = try targets("coaty/3/-/IOV/s1") else {
            Issue.record("an IO value goes to the observers of its route")
            return
        }
        #expect(io.map(\.id) == [3])
    }

    @Test func rawSinksMatchByWildcard() {
        var router = Router()
        router.addRaw(Sink(id: 1) { _ in }, filter: "sensors/+/temp")
        router.addRaw(Sink(id: 2) { _ in }, filter: "#")
        #expect(router.rawSinks(matching: "sensors/1/temp").map(\.id) == [1, 2])
        #expect(router.rawSinks(matching: "other").map(\.id) == [2])
        router.removeRaw(2)
        #expect(router.rawSinks(matching: "other").isEmpty)
    }

    @Test func responsesAreFoundByCorrelationID() {
        var router = Router()
        router.add(ResponseSink(responseType: .resolve) { _, _ in .accepted }, correlationID: "c1")
        #expect(router.responseSink(correlationID: "c1")?.responseType == .resolve)
        #expect(router.responseSink(correlationID: "c2") == nil)
        router.removeResponses(correlationID: "c1")
        #expect(router.openCorrelationIDs.isEmpty)
    }

    @Test func ioRoutesAreExact() {
        var router = Router()
        router.addIO(Sink(id: 7) { _ in }, route: "coaty/3/-/IOV/x")
        #expect(router.ioSinks(route: "coaty/3/-/IOV/x").map(\.id) == [7])
        #expect(router.ioSinks(route: "coaty/3/-/IOV/y").isEmpty)
        router.removeIO(7, route: "coaty/3/-/IOV/x")
        #expect(router.ioRoutes.isEmpty)
    }
}

@Suite struct AgentConfigurationTests {
    @Test func anInvalidNamespaceIsAConfigurationError() {
        let error = #expect(throws: AgentError.self) {
            try Agent(configuration: Agent.Configuration(namespace: "a/b"))
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.contains("a/b") == true)
    }

    @Test func aBadBrokerURLIsAConfigurationError() {
        let error = #expect(throws: AgentError.self) {
            try Agent(configuration: Agent.Configuration(broker: .init(url: "http://x")))
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func anAgentThatNeverRanHasIdleState() throws {
        let agent = try Agent(configuration: Agent.Configuration(identity: Identity(name: "idle")))
        #expect(agent.connectionState == .idle)
        #expect(agent.statistics.receivedMessages == 0)
        #expect(agent.scope.namespace == "-")
    }

    @Test func publishingBeforeRunningIsQueuedNotLost() throws {
        let agent = try Agent(configuration: Agent.Configuration(identity: Identity(name: "queued")))
        try agent.advertise(BaseObject(name: "x"))
        #expect(agent.state.withLock { $0.machine.offlineQueue.count } == 1)
    }
}
