import Agent
import CoreTypes
import Foundation
import TestSupport

/// An agent on the test broker that sees every Coaty message of its namespace, so a test can
/// check what agent-runner put on the wire, and can answer requests.
struct Watcher: Sendable {
    let agent: Agent
    let events: EventStream<CoatyMessage>

    /// Runs a watcher (online, subscribed to everything) until `body` returns, then stops it.
    static func with<Result: Sendable>(
        _ broker: TestBroker, namespace: String = "-", _ body: @Sendable (Watcher) async throws -> Result
    ) async throws -> Result {
        var configuration = Agent.Configuration(identity: Identity(name: "Watcher"), namespace: namespace)
        configuration.broker.url = broker.url.description
        let agent = try Agent(configuration: configuration)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await agent.run() }
            for await state in agent.connectionStates() where state == .online { break }
            do {
                let watcher = Watcher(agent: agent, events: try await agent.observeAllEvents())
                let result = try await body(watcher)
                group.cancelAll()
                try await group.waitForAll()
                return result
            } catch {
                group.cancelAll()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// The next message that satisfies `isWanted`; the ones before it are skipped.
    func next(where isWanted: (CoatyMessage) -> Bool) async throws -> CoatyMessage? {
        for try await message in events where isWanted(message) { return message }
        return nil
    }

    /// Every message up to and including the first that satisfies `isLast`.
    func collect(until isLast: (CoatyMessage) -> Bool) async throws -> [CoatyMessage] {
        var all: [CoatyMessage] = []
        for try await message in events {
            all.append(message)
            if isLast(message) { break }
        }
        return all
    }

    /// The payload of a message as JSON.
    static func json(_ message: CoatyMessage?) -> JSONValue? {
        message.flatMap { try? JSONValue(parsing: $0.payload) }
    }
}

extension CoatyMessage {
    /// Whether this is a Deadvertise that names `objectID`.
    func deadvertises(_ objectID: String) -> Bool {
        topic.eventType == .deadvertise
            && (Watcher.json(self)?["objectIds"]?.arrayValue ?? []).contains(.string(objectID))
    }

    /// Whether this is an Advertise of the object with id `objectID`.
    func advertises(_ objectID: String) -> Bool {
        topic.eventType == .advertise && Watcher.json(self)?.at("object.objectId") == .string(objectID)
    }
}

/// Fresh identity ids for the agent-runner processes of a test.
enum TestIDs {
    static func make() -> String { UUID().uuidString.lowercased() }
}
