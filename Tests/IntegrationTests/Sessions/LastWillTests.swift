import Agent
import CoreTypes
import Testing
import TestSupport

/// One `join` case of `topics.json`: what a coaty-js agent puts on the wire when it joins, and
/// the last will it leaves with the broker.
struct JoinCase: Sendable, CustomTestStringConvertible {
    let json: JSONValue
    var testDescription: String { json["name"]?.stringValue ?? "?" }

    static func all() throws -> [JoinCase] {
        try VectorFiles.jsonCases("topics.json", group: "join").map(JoinCase.init(json:))
    }
}

/// An agent that dies without DISCONNECT (SIGKILL) leaves its last will, and the broker publishes
/// it: exactly the Deadvertise of the `join` vectors, with QoS 0 and not retained.
///
/// The kill is reproduced with ``Agent/closeConnectionAbruptly()``: the agent's socket is closed at
/// once, without the Deadvertise and without DISCONNECT, which is all the broker sees of a killed
/// process (the kernel closes its sockets). A child process would need an executable that the
/// test target cannot depend on; the hook gives the broker the same view, deterministically.
@Suite(.timeLimit(.minutes(1)))
struct LastWillTests {
    @Test(arguments: try JoinCase.all())
    func brokerPublishesTheWillOfAKilledAgent(_ vector: JoinCase) async throws {
        let input = vector.json["input"] ?? .null
        let expected = try #require(vector.json["expected"])
        let joins = try (expected["joinPublications"]?.arrayValue ?? []).map(Self.message)
        let will = try Self.message(try #require(expected["lastWill"]))
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: try Self.configuration(input, expected, broker: broker))
            var recorder = try TestClient("last-will-recorder", broker: broker.url)
            try await recorder.connect()
            try await recorder.subscribe(["coaty/#"], qos: .exactlyOnce)
            let running = Task { try await agent.run() }
            var received: [SessionCase.Message] = []
            for _ in joins { received.append(Self.message(try await recorder.nextMessage())) }
            #expect(received == joins, "the join publications")
            agent.closeConnectionAbruptly()
            let published = Self.message(try await recorder.nextMessage())
            #expect(published == will, "the last will")
            try await running.value
            #expect(agent.connectionState == .stopped)
            let retained = try await SessionRecorder.retainedTopics(broker: broker, topics: ["coaty/#"])
            #expect(retained.isEmpty, "neither the join publications nor the will are retained")
            recorder.client.close()
        }
    }

    /// On a graceful stop the agent publishes the same Deadvertise itself, byte for byte, before
    /// it disconnects (wire protocol §1.3).
    @Test(arguments: try JoinCase.all())
    func gracefulStopPublishesTheWillItself(_ vector: JoinCase) async throws {
        let input = vector.json["input"] ?? .null
        let expected = try #require(vector.json["expected"])
        let joins = try (expected["joinPublications"]?.arrayValue ?? []).map(Self.message)
        let will = try Self.message(try #require(expected["lastWill"]))
        try await TestBroker.withBroker { broker in
            let agent = try Agent(configuration: try Self.configuration(input, expected, broker: broker))
            var recorder = try TestClient("graceful-stop-recorder", broker: broker.url)
            try await recorder.connect()
            try await recorder.subscribe(["coaty/#"], qos: .exactlyOnce)
            let running = Task { try await agent.run() }
            for _ in joins { _ = try await recorder.nextMessage() }
            running.cancel()
            let published = Self.message(try await recorder.nextMessage())
            // As coaty-js: the will's QoS (0). DISCONNECT waits for the UNSUBACK of an UNSUBSCRIBE
            // sent after it instead of a PUBACK (see the agent's stop).
            #expect(published.topic == will.topic, "the Deadvertise of a graceful stop")
            #expect(published.payload == will.payload, "the Deadvertise of a graceful stop, byte for byte")
            #expect(published.retain == will.retain)
            #expect(published.qos == will.qos)
            try await running.value
            recorder.client.close()
        }
    }

    /// The configuration of the agent of a `join` case on `broker`.
    static func configuration(_ input: JSONValue, _ expected: JSONValue, broker: TestBroker) throws
        -> Agent.Configuration
    {
        var configuration = RunningAgents.configuration(
            "unused", broker: broker, namespace: input["namespace"]?.stringValue ?? "-")
        configuration.identity = try identity(input)
        // coaty-js made the IO nodes' ids with its counter: take the nodes from its join publications.
        configuration.ioNodes = try (expected["joinPublications"]?.arrayValue ?? []).compactMap { publication in
            guard publication["topic"]?.stringValue?.contains("/ADV:IoNode/") == true,
                let payload = publication["payload"]?.stringValue,
                let node = try JSONValue(parsing: payload)["object"]?.objectValue
            else { return nil }
            return try IoNode(jsonObject: node)
        }
        return configuration
    }

    /// The identity coaty-js configured: `common.agentIdentity` merged into `{objectId, name}`
    /// (the vector harness names its agent "Vector Agent").
    static func identity(_ input: JSONValue) throws -> Identity {
        let objectID = try #require(input["identityId"]?.stringValue)
        let options = input["identity"]?.objectValue ?? [:]
        var custom = options
        for key in ["name", "externalId"] { custom[key] = nil }
        return Identity(
            objectID: objectID, name: options["name"]?.stringValue ?? "Vector Agent",
            externalID: options["externalId"]?.stringValue, custom: custom)
    }

    static func message(_ json: JSONValue) throws -> SessionCase.Message {
        SessionCase.Message(
            topic: try #require(json["topic"]?.stringValue),
            payload: Array(try #require(json["payload"]?.stringValue).utf8),
            retain: json["retain"]?.boolValue ?? false, qos: json["qos"]?.intValue ?? 0)
    }

    static func message(_ message: InboundMessage) -> SessionCase.Message {
        SessionCase.Message(
            topic: message.topic, payload: message.payload, retain: message.retain, qos: Int(message.qos.rawValue))
    }
}
