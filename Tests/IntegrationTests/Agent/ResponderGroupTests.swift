@testable import Agent
import CoreTypes
import Synchronization
import Testing
import TestSupport

/// Responder groups: agents answering in one group share the requests through MQTT shared
/// subscriptions, so each request reaches one of them; the identity's Discover responder is never shared.
@Suite(.timeLimit(.minutes(2)))
struct ResponderGroupTests {
    /// Which replica handled which request, counted where the requests are handled.
    final class Tally: Sendable {
        private let handled = Mutex<[(request: String, replica: String)]>([])

        func add(_ request: IncomingRequest<some RequestEvent>, by replica: Agent) {
            let key = "\(request.topic.eventType.rawValue) \(request.correlationID ?? "")"
            handled.withLock { $0.append((key, replica.identity.objectID)) }
        }

        var requests: [String] { handled.withLock { $0.map(\.request) } }

        func count(by replica: Agent) -> Int {
            handled.withLock { all in all.count { $0.replica == replica.identity.objectID } }
        }
    }

    static let group = "lamps"

    /// Three agents whose every responder answers in ``group``.
    static func replicas(_ broker: TestBroker) throws -> [Agent] {
        try (1...3).map { index in
            var configuration = RunningAgents.configuration("replica \(index)", broker: broker)
            configuration.responderGroup = group
            return try Agent(configuration: configuration)
        }
    }

    /// Each of `replicas` answers every Query it gets (in `group`, else its configured one) with an
    /// empty Retrieve, counted in `tally`.
    static func serveQueries(
        _ replicas: [Agent], counting tally: Tally, group: String? = nil
    ) async throws -> [InlineResponder] {
        try await replicas.asyncMap { replica in
            try await replica.startServingQuery(responderGroup: group) { request in
                tally.add(request, by: replica)
                try request.respond(Retrieve(objects: []))
            }
        }
    }

    /// Every replica answers its identity's Discover on its own connection. The Resolves leave each
    /// replica after whatever its group connection had received before: a request delivered twice
    /// has been handled twice once this returns.
    static func fence(_ requester: Agent, _ replicas: [Agent]) async throws {
        var missing = Set(replicas.map(\.identity.objectID))
        for try await resolve in try await requester.discover(Discover(coreTypes: [.identity]), timeout: .seconds(30)) {
            missing.remove(resolve.sourceID)
            if missing.isEmpty { return }
        }
        Issue.record("no Resolve for the identities of \(missing)")
    }

    @Test
    func eachKindOfRequestReachesOneAgentOfTheGroup() async throws {
        try await TestBroker.withBroker { broker in
            let requester = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let replicas = try Self.replicas(broker)
            let tally = Tally()
            let lamp = BaseObject(objectType: "com.example.Lamp", name: "lamp")
            try await RunningAgents.run([requester] + replicas) {
                var responders: [InlineResponder] = []
                for replica in replicas {
                    responders += [
                        try await replica.startServingDiscover { request in
                            guard request.event.objectID == lamp.objectID else { return }
                            tally.add(request, by: replica)
                            try request.respond(Resolve(object: lamp))
                        },
                        try await replica.startServingQuery { request in
                            tally.add(request, by: replica)
                            try request.respond(Retrieve(objects: [lamp]))
                        },
                        try await replica.startServingUpdate(objectType: lamp.objectType) { request in
                            tally.add(request, by: replica)
                            try request.respond(Complete(object: request.event.object))
                        },
                        try await replica.startServingCall("com.example.switch") { request in
                            tally.add(request, by: replica)
                            try request.respond(Return(result: .string(replica.identity.objectID)))
                        },
                    ]
                }
                defer { responders.forEach { $0.cancel() } }
                let rounds = 60
                var answeredBy: [String: Int] = [:]
                for _ in 0..<rounds {
                    let answers = [
                        try await requester.discover(Discover(objectID: lamp.objectID), timeout: .seconds(30)).first().sourceID,
                        try await requester.query(Query(objectTypes: [lamp.objectType]), timeout: .seconds(30)).first().sourceID,
                        try await requester.update(Update(object: lamp), timeout: .seconds(30)).first().sourceID,
                        try await requester.call(Call(operation: "com.example.switch"), timeout: .seconds(30)).first().sourceID,
                    ]
                    for answer in answers { answeredBy[answer, default: 0] += 1 }
                }
                try await Self.fence(requester, replicas)
                let requests = tally.requests
                #expect(requests.count == 4 * rounds, "each request handled once: \(requests.count) handled")
                #expect(Set(requests).count == requests.count, "no request reached two replicas")
                for replica in replicas {
                    #expect(tally.count(by: replica) > 0, "\(replica.identity.name) had a share")
                    #expect(answeredBy[replica.identity.objectID] == tally.count(by: replica))
                    #expect(
                        replica.statistics.receivedMessages > tally.count(by: replica),
                        "the statistics count the group's requests and the identity's messages")
                }
            }
        }
    }

    @Test
    func theIdentityDiscoverIsAnsweredByEveryAgentOfTheGroup() async throws {
        try await TestBroker.withBroker { broker in
            let requester = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let replicas = try Self.replicas(broker)
            try await RunningAgents.run([requester] + replicas) {
                // A shared Discover responder of the group must not take the identity's Discovers away.
                let responders = try await replicas.asyncMap { replica in
                    try await replica.startServingDiscover { _ in }
                }
                defer { responders.forEach { $0.cancel() } }
                for replica in replicas {
                    let resolve = try await requester.discover(
                        Discover(objectID: replica.identity.objectID), timeout: .seconds(30)
                    ).first()
                    #expect(resolve.sourceID == replica.identity.objectID)
                }
                try await Self.fence(requester, replicas)
            }
        }
    }

    @Test
    func aReplicaThatDiesLeavesItsShareToTheOthers() async throws {
        try await TestBroker.withBroker { broker in
            let requester = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let replicas = try Self.replicas(broker)
            let tally = Tally()
            try await RunningAgents.run([requester] + replicas) {
                let responders = try await Self.serveQueries(replicas, counting: tally)
                defer { responders.forEach { $0.cancel() } }
                let query = Query(objectTypes: ["com.example.Lamp"])
                for _ in 0..<30 { _ = try await requester.query(query, timeout: .seconds(30)).first() }
                #expect(tally.count(by: replicas[0]) > 0)

                let dead = replicas[0]
                try await requester.observeDeadvertise { deadvertises in
                    dead.closeConnectionAbruptly()
                    for try await deadvertise in deadvertises
                    where deadvertise.event.objectIDs.contains(dead.identity.objectID) {
                        break
                    }
                }
                // The group's connection is another socket: wait until the broker has seen it close too.
                let link = Agent.responderGroupClientID(identityID: dead.identity.objectID, group: Self.group)
                #expect(await broker.waitForOutput(containing: "Client \(link) "))
                let before = tally.count(by: dead)
                for _ in 0..<60 {
                    let retrieve = try await requester.query(query, timeout: .seconds(30)).first()
                    #expect(retrieve.sourceID != dead.identity.objectID)
                }
                try await Self.fence(requester, Array(replicas.dropFirst()))
                let requests = tally.requests
                #expect(requests.count == 90)
                #expect(Set(requests).count == requests.count, "no request reached two replicas")
                #expect(tally.count(by: dead) == before, "the dead replica got no more requests")
                #expect(tally.count(by: replicas[1]) > 0 && tally.count(by: replicas[2]) > 0)
            }
        }
    }

    /// The bytes coaty-js publishes for a Query, sent again and again by a plain MQTT client: each
    /// copy is answered by one replica. The group lives in the broker, whoever asks.
    @Test
    func aCoatyJsQueryIsAnsweredOnce() async throws {
        let vector = try #require(
            try VectorFiles.jsonCases("events.json").first { $0["group"] == "outbound" && $0["event"] == "Query" })
        let publication = try #require(vector["expected"]?["publications"]?[0])
        let topic = try #require(publication["topic"]?.stringValue)
        let payload = Array(try #require(publication["payload"]?.stringValue).utf8)
        let correlationID = try #require(CoatyTopic(parsing: topic)?.correlationID)
        try await TestBroker.withBroker { broker in
            let requester = try Agent(configuration: RunningAgents.configuration("fence", broker: broker))
            let replicas = try Self.replicas(broker)
            let tally = Tally()
            try await RunningAgents.run([requester] + replicas) {
                let responders = try await Self.serveQueries(replicas, counting: tally)
                defer { responders.forEach { $0.cancel() } }
                var client = try TestClient("coaty-js-requester", broker: broker.url)
                try await client.connect()
                try await client.subscribe(["coaty/3/-/RTV/+/\(correlationID)"])
                let copies = 30
                var answeredBy: [String: Int] = [:]
                for _ in 0..<copies {
                    _ = try client.client.publish(topic: topic, payload: payload, qos: .atMostOnce, retain: false)
                    let retrieve = try await client.nextMessage()
                    answeredBy[try CoatyTopic(parsing: retrieve.topic)?.sourceID ?? retrieve.topic, default: 0] += 1
                }
                try await Self.fence(requester, replicas)
                #expect(tally.requests.count == copies, "each copy handled once")
                #expect(answeredBy.values.reduce(0, +) == copies)
                #expect(answeredBy.count == replicas.count, "every replica had a share: \(answeredBy)")
                client.client.close()
            }
        }
    }

    @Test
    func aGroupNameThatIsNotATopicLevelIsRefused() async throws {
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: RunningAgents.configuration("replica", broker: broker))
            let error = await #expect(throws: AgentError.self) {
                _ = try await agent.startServingQuery(responderGroup: "a/b") { _ in }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.detail.contains("responder group 'a/b'") == true)
            var configuration = RunningAgents.configuration("replica", broker: broker)
            configuration.responderGroup = "a+b"
            let configured = #expect(throws: AgentError.self) { try Agent(configuration: configuration) }
            #expect(configured?.code == .invalidConfiguration)
        }
    }
}

extension Array {
    fileprivate func asyncMap<Mapped>(_ transform: (Element) async throws -> Mapped) async throws -> [Mapped] {
        var mapped: [Mapped] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
