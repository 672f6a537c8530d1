import CoreTypes
import Logging
import Synchronization
import Testing

@testable import Agent

/// What a real agent's observer received of one inbound message.
struct AgentDelivery {
    /// Whether the observer (or the open request) got the event.
    var isDelivered: Bool { !received.isEmpty }
    /// What it got, in the vectors' `deliveredData` form (`nil` where the vectors record no data).
    var received: [JSONValue?]
}

/// A real, unconnected agent configured from an inbound case's input (`input.setup`, the
/// namespace, the identity), with the case's observer or request set up.
///
/// The message is routed by the agent's own `route(_:)`: its router picks the observers, its
/// decoders and observers' local checks (object type, Call context, response fit) decide. Routing
/// off the agent's network thread delivers at once, so the observer's buffer holds everything it
/// will get when `route` returns; ending the observation then lets it be read without waiting.
///
/// The setup text is read as a coaty-js call (``JSCall``): `observe…(…)` calls and
/// `publish…(<request>)` calls. The IO setups, which the vectors describe in words, are read by
/// their parts: `ioContextNodes <context> with actor <actor>`, an injected Associate's
/// `associatingRoute: '<route>'`, and the observer (`observeIoValue`, `observeIoState`).
enum InboundAgent {
    /// A setup this reader cannot turn into Swift.
    struct UnreadableSetup: Error, CustomStringConvertible {
        let setup: String
        var description: String { "no Swift equivalent for the setup \(setup)" }
    }

    /// Sets up the agent for `vector`, routes its message and reports what the observer got.
    static func deliver(_ vector: VectorCase) async throws -> AgentDelivery {
        let setup = try #require(vector.input["setup"]?.stringValue)
        let topic = try #require(vector.input["topic"]?.stringValue)
        let agent = try makeAgent(vector)
        let observer = try await observe(setup, on: agent)
        agent.route(InboundMessage(topic: topic, payload: vector.inboundPayload, qos: .atMostOnce, retain: false))
        return AgentDelivery(received: await observer())
    }

    /// The agent of the case: identity A (or `input.sourceId`), the case's namespace, and ids made
    /// the way the vector harness made them (`c0de…0001`, …).
    static func makeAgent(_ vector: VectorCase) throws -> Agent {
        let scope = vector.scope
        let configuration = Agent.Configuration(
            identity: EventFixtures.identity(scope.identityID), namespace: scope.namespace,
            isCrossNamespacing: scope.isCrossNamespacing)
        let counter = CorrelationIDCounter()
        return try Agent(
            configuration: configuration, registry: EventFixtures.registry, logger: Logger(label: "vectors") { _ in SwiftLogNoOpLogHandler() },
            eventLoop: nil, makeCorrelationID: { counter.next() })
    }

    /// Sets up the observer that `setup` describes; returns a closure that ends the observation and
    /// hands over what it received.
    static func observe(_ setup: String, on agent: Agent) async throws -> () async -> [JSONValue?] {
        if setup.hasPrefix("ioContextNodes ") { return try await observeIO(setup, on: agent) }
        guard let call = JSCall(setup) else { throw UnreadableSetup(setup: setup) }
        if case .call(let inner) = call[0], case .request(let request)? = try SwiftEquivalent.event(for: inner) {
            return try await openRequest(request, on: agent)
        }
        typealias S = SwiftEquivalent
        switch call.callee {
        case "observeAdvertiseWithCoreType":
            return drain(try await agent.observeAdvertise(coreType: ObservationEquivalent.coreType(call[0])))
        case "observeAdvertiseWithObjectType":
            return drain(try await agent.observeAdvertise(objectType: S.string(call[0])))
        case "observeDeadvertise": return drain(try await agent.observeDeadvertise())
        case "observeChannel": return drain(try await agent.observeChannel(S.string(call[0])))
        case "observeDiscover": return drain(try await agent.observeDiscover())
        case "observeQuery": return drain(try await agent.observeQuery())
        case "observeUpdateWithCoreType":
            return drain(try await agent.observeUpdate(coreType: ObservationEquivalent.coreType(call[0])))
        case "observeUpdateWithObjectType": return drain(try await agent.observeUpdate(objectType: S.string(call[0])))
        case "observeCall":
            return drain(try await agent.observeCall(S.string(call[0]), context: try context(call[1])))
        case "observeRaw":
            return drain(try await agent.observeRaw(S.string(call[0]))) { raw in
                ["topic": .string(raw.topic), "payloadHex": .string(hex(raw.payload))]
            }
        default:
            throw UnreadableSetup(setup: setup)
        }
    }

    /// The context object of `observeCall(op, context)`: the members the vector gives (`{floor:3,...}`)
    /// on a plain CoatyObject (the vector elides the others).
    static func context(_ argument: JSArgument) throws -> (any CoatyObject)? {
        guard case .value(.object(let members)) = argument else { return nil }
        return try EventFixtures.object(
            [
                "objectId": "6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a", "objectType": "com.example.Room",
                "coreType": "CoatyObject", "name": "Room",
            ], with: members)
    }

    /// The IO setups: an IO value observer on the route of the injected Associate (none injected:
    /// no route, nothing delivered), or an IO state observer, which sees the Associates of its context.
    static func observeIO(_ setup: String, on agent: Agent) async throws -> () async -> [JSONValue?] {
        let words = setup.split(separator: " ")
        let context = words.count > 1 ? String(words[1]) : ""
        if setup.contains("observeIoState") {
            return drain(try await agent.observeAssociate(ioContextName: context)) { _ in nil }
        }
        guard setup.contains("observeIoValue") else { throw UnreadableSetup(setup: setup) }
        guard let route = setup.quoted(after: "associatingRoute: ") else { return { [] } }
        // An actor named raw… is created with `useRawIoValues` (the vectors' `rawIoActor`).
        let usesRawValues = words.contains { $0.lowercased().hasPrefix("rawioactor") }
        return drain(try await agent.observeIoValue(route: route, usesRawValues: usesRawValues)) { value in
            switch value {
            case .json(let json): ["value": json]
            case .raw(let bytes): ["bytesHex": .string(hex(bytes))]
            }
        }
    }

    /// Publishes `request` (offline: into the agent's queue) and keeps its response route open.
    static func openRequest(_ request: any PlannedRequest, on agent: Agent) async throws
        -> () async -> [JSONValue?]
    {
        func open<R: PlannedRequest>(_ request: R) async throws -> () async -> [JSONValue?] {
            // The timeout never passes: the responses are read once routing returned.
            let responses = try await agent.request(request, timeout: .seconds(3600))
            return drain(responses.makeAsyncIterator()) { try? $0.event.json() }
        }
        return try await open(request)
    }

    static func drain<Event: CoatyEvent>(_ stream: EventStream<Received<Event>>) -> () async -> [JSONValue?] {
        drain(stream.makeAsyncIterator()) { try? $0.event.json() }
    }

    static func drain<Request: PlannedRequest>(
        _ stream: EventStream<IncomingRequest<Request>>
    ) -> () async -> [JSONValue?] {
        drain(stream.makeAsyncIterator()) { try? $0.event.json() }
    }

    static func drain<Element>(
        _ stream: EventStream<Element>, _ data: @escaping @Sendable (Element) -> JSONValue?
    ) -> () async -> [JSONValue?] {
        drain(stream.makeAsyncIterator(), data)
    }

    /// Ends the observation (its buffer is kept) and reads what it buffered.
    static func drain<Element>(
        _ iterator: EventStream<Element>.Iterator, _ data: @escaping @Sendable (Element) -> JSONValue?
    ) -> () async -> [JSONValue?] {
        { [iterator] in
            var iterator = iterator
            iterator.consumer.queue.finish()
            var received: [JSONValue?] = []
            while let element = try? await iterator.next() { received.append(data(element)) }
            return received
        }
    }
}

/// The vector harness's correlation ids (`c0de0000-0000-4000-8000-00000000000N`), shared by the
/// agent's tasks.
final class CorrelationIDCounter: Sendable {
    private let counter = Mutex(CorrelationCounter())

    func next() -> String { counter.withLock { $0.next() } }
}

extension String {
    /// The text between the quotes that follow `marker` (`associatingRoute: 'coaty/…'`).
    func quoted(after marker: String) -> String? {
        guard let start = firstRange(of: marker)?.upperBound, start < endIndex else { return nil }
        let quote = self[start]
        guard quote == "'" || quote == "\"" else { return nil }
        let rest = self[index(after: start)...]
        guard let end = rest.firstIndex(of: quote) else { return nil }
        return String(rest[..<end])
    }
}
