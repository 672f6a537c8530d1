@testable import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Authentication with a mosquitto password file, and authorisation with an ACL file and with the
/// dynamic security plugin: what is refused, how the agent says so, and that it keeps running.
@Suite(.timeLimit(.minutes(2)))
struct AuthorizationTests {
    static let aclFile = """
        user agent
        topic readwrite coaty/#
        topic deny coaty/3/-/CHN:secret/#
        user admin
        topic readwrite #

        """

    /// mosquitto 2.0.11 disconnects a client whose publication an ACL denies when
    /// `max_queued_messages` is 0 (the test broker's default, which keeps busy subscribers from
    /// losing messages): its "queue full" check then always fires. These tests set a large limit
    /// instead, to see how brokers normally treat denied topics.
    static let queueLimit = "max_queued_messages 1000000"

    /// Runs `body` with a broker that allows only the users `agent` (password `agent-secret`) and
    /// `admin` (password `admin-secret`), with ``aclFile``.
    func withPasswordBroker(_ body: (TestBroker) async throws -> Void) async throws {
        let files = try BrokerSecurityFiles()
        defer { files.remove() }
        let passwords = try await files.passwordFile([("agent", "agent-secret"), ("admin", "admin-secret")])
        let acl = try files.aclFile(Self.aclFile)
        try await TestBroker.withBroker(
            extraConfiguration: [
                "allow_anonymous false", "password_file \(passwords)", "acl_file \(acl)", Self.queueLimit,
            ], body)
    }

    func configuration(
        _ name: String, broker: TestBroker, username: String?, password: String?, version: MQTTVersion = .v311
    ) -> Agent.Configuration {
        var configuration = Reliability.configuration(name, broker: broker)
        configuration.broker.username = username
        configuration.broker.password = password
        configuration.broker.protocolVersion = version
        return configuration
    }

    /// A refused CONNACK for bad credentials is final even with the default policy of retrying
    /// forever: `run()` throws at once, naming the broker and the reason.
    @Test(arguments: [MQTTVersion.v311, .v5])
    func aWrongPasswordEndsTheAgentWithAClearError(version: MQTTVersion) async throws {
        try await withPasswordBroker { broker in
            for (username, password) in [("agent", "wrong"), ("nobody", "agent-secret")] as [(String?, String?)] + [
                (nil, nil)
            ] {
                var configuration = configuration(
                    "A", broker: broker, username: username, password: password, version: version)
                configuration.reconnect = ReconnectPolicy()
                let agent = try Agent(configuration: configuration)
                let error = Reliability.agentError(try await Reliability.outcome(of: agent))
                #expect(error?.code == .connectionFailed)
                let detail = error?.detail ?? ""
                #expect(detail.contains("broker mqtt://127.0.0.1:\(broker.port) refused the connection"), "\(detail)")
                #expect(detail.contains(version == .v5 ? "Not authorized" : "not authorised"), "\(detail)")
                #expect(detail.contains("check the username and password"), "\(detail)")
                #expect(agent.statistics.connections == 0)
                Reliability.report("wrong credentials, \(version): \(detail)")
            }
        }
    }

    @Test func theRightPasswordConnects() async throws {
        try await withPasswordBroker { broker in
            let agent = try Agent(
                configuration: configuration("A", broker: broker, username: "agent", password: "agent-secret"))
            try await RunningAgents.run([agent]) {
                let events = try await agent.observeChannel("open")
                try agent.publish(Reliability.numbered(1, on: "open"))
                var iterator = events.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 1)
            }
        }
    }

    /// mosquitto's `acl_file` accepts every subscription and filters when it delivers; a publication
    /// it denies is dropped without a word (MQTT 3.1.1 has none). The agent sees nothing of either
    /// and keeps running.
    @Test func anACLFileDropsDeniedTopicsSilently() async throws {
        try await withPasswordBroker { broker in
            let a = try Agent(
                configuration: configuration("A", broker: broker, username: "agent", password: "agent-secret"))
            let admin = try Agent(
                configuration: configuration("Admin", broker: broker, username: "admin", password: "admin-secret"))
            var recorder = try TestClient("recorder-\(UUID().uuidString.prefix(8))", broker: broker.url) {
                $0.credentials = .init(username: "admin", password: "admin-secret")
            }
            try await recorder.connect()
            try await recorder.subscribe(["coaty/3/-/CHN:secret/+", "coaty/3/-/CHN:open/+"])
            try await RunningAgents.run([a, admin]) {
                let secret = try await a.observeChannel("secret")
                let open = try await a.observeChannel("open")
                #expect(a.statistics.refusedSubscriptions == 0, "acl_file does not refuse subscriptions")
                try a.publish(Reliability.numbered(1, on: "secret"))
                try a.publish(Reliability.numbered(2, on: "open"))
                try admin.publish(Reliability.numbered(3, on: "secret"))
                try admin.publish(Reliability.numbered(4, on: "open"))
                var iterator = open.makeAsyncIterator()
                let received = [
                    try Reliability.number(of: try #require(await iterator.next())),
                    try Reliability.number(of: try #require(await iterator.next())),
                ]
                #expect(Set(received) == [2, 4])
                // Each secret publication went out before its open one: had one been delivered, it would have arrived first.
                #expect(a.statistics.receivedMessages == 2)
                #expect(a.statistics.refusedPublications == 0, "MQTT 3.1.1 cannot report a refused publication")
                #expect(a.connectionState == .online)
                withExtendedLifetime(secret) {}
            }
            // Had A's secret publication been delivered, it would have arrived before A's open one.
            var topics: Set<String> = []
            let awaited: Set = [
                "coaty/3/-/CHN:open/\(a.identity.objectID)", "coaty/3/-/CHN:open/\(admin.identity.objectID)",
            ]
            while !awaited.isSubset(of: topics) { topics.insert(try await recorder.nextMessage().topic) }
            #expect(
                !topics.contains("coaty/3/-/CHN:secret/\(a.identity.objectID)"), "A's denied publication reached nobody"
            )
        }
    }

    /// With the dynamic security plugin the broker refuses the subscription in its SUBACK: the observe
    /// call throws saying so (0x80 with MQTT 3.1.1, reason code 0x87 with MQTT 5), the refusal is
    /// counted, and the agent keeps running. With MQTT 5 and QoS 1 a refused publication is counted too.
    /// A request waiting for its SUBACK throws at once; a pipelined one (the default) ends its responses
    /// with the same error long before its timeout.
    @Test(arguments: [MQTTVersion.v311, .v5])
    func aRefusedSubscriptionFailsTheObserveCallAndTheAgentKeepsRunning(version: MQTTVersion) async throws {
        let files = try BrokerSecurityFiles()
        defer { files.remove() }
        let dynamicSecurity = try files.dynamicSecurityFile(anonymousACLs: [
            #"{"acltype": "subscribePattern", "topic": "coaty/3/-/CHN:secret/#", "priority": 0, "allow": false}"#,
            #"{"acltype": "publishClientSend", "topic": "coaty/3/-/CHN:secret/#", "priority": 0, "allow": false}"#,
            #"{"acltype": "subscribePattern", "topic": "coaty/3/-/RTN/#", "priority": 0, "allow": false}"#,
        ])
        let brokerConfiguration =
            try BrokerSecurityFiles.dynamicSecurityConfiguration(dynamicSecurity) + [Self.queueLimit]
        try await TestBroker.withBroker(extraConfiguration: brokerConfiguration) { broker in
            var configuration = configuration("A", broker: broker, username: nil, password: nil, version: version)
            configuration.qos = .atLeastOnce
            configuration.requestPublication = .afterSubscriptionAcknowledged
            let a = try Agent(configuration: configuration)
            let b = try Agent(configuration: self.configuration("B", broker: broker, username: nil, password: nil, version: version))
            #expect(b.configuration.requestPublication == .pipelined, "the default")
            try await RunningAgents.run([a, b]) {
                for attempt in 1...2 {
                    let error = await #expect(throws: AgentError.self) { try await a.observeChannel("secret") }
                    #expect(error?.code == .subscribeFailed)
                    let detail = error?.detail ?? ""
                    #expect(
                        detail.contains(
                            "broker mqtt://127.0.0.1:\(broker.port) refused the subscription to 'coaty/3/-/CHN:secret/+'"
                        ), "\(detail)")
                    #expect(
                        detail.contains(
                            version == .v5 ? "reason code 0x87 (Not authorized)" : "return code 0x80 (failure)"),
                        "\(detail)")
                    #expect(a.statistics.refusedSubscriptions == attempt)
                    Reliability.report("refused subscription, \(version): \(detail)")
                }
                // A request whose response subscription is refused is not published at all.
                let error = await #expect(throws: AgentError.self) {
                    try await a.call(Call(operation: "com.example.op"))
                }
                #expect(error?.code == .subscribeFailed)
                #expect(error?.detail.contains("no Call was published") == true, "\(String(describing: error))")
                #expect(a.statistics.refusedSubscriptions == 3)
                // A pipelined request has gone out behind its SUBSCRIBE; the refusal ends its responses.
                let responses = try await b.call(Call(operation: "com.example.op"), timeout: .seconds(60))
                let refusal = await #expect(throws: AgentError.self) { try await responses.first() }
                #expect(refusal?.code == .subscribeFailed)
                #expect(refusal?.detail.contains("no response can arrive") == true, "\(String(describing: refusal))")
                #expect(b.statistics.refusedSubscriptions == 1)
                let open = try await a.observeChannel("open")
                try a.publish(Reliability.numbered(1, on: "secret"))
                try a.publish(Reliability.numbered(2, on: "open"))
                var iterator = open.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await iterator.next())) == 2)
                // The PUBACK of the refused publication arrived before the open one came back.
                #expect(a.statistics.refusedPublications == (version == .v5 ? 1 : 0))
                #expect(a.connectionState == .online)
            }
        }
    }
}
