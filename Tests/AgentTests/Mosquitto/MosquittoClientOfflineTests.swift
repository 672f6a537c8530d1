@testable import Agent
import CoreTypes
import Testing

/// What a client does before it has a connection; no broker needed.
@Suite(.timeLimit(.minutes(1)))
struct MosquittoClientOfflineTests {
    static let broker = BrokerURL(host: "127.0.0.1", port: 1)

    func makeClient(_ configure: (inout MosquittoClient.Configuration) -> Void = { _ in }) throws -> MosquittoClient {
        var configuration = MosquittoClient.Configuration(clientID: "offline", broker: Self.broker)
        configure(&configuration)
        return try MosquittoClient(configuration: configuration)
    }

    @Test(arguments: [Duration.seconds(1), .seconds(4), .seconds(65_536)])
    func rejectsKeepAliveOutOfRange(_ keepAlive: Duration) {
        let error = #expect(throws: MosquittoError.self) { try makeClient { $0.keepAlive = keepAlive } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description.contains("keepAlive") == true)
    }

    @Test(arguments: [Duration.zero, .seconds(5), .seconds(60), .seconds(65_535)])
    func acceptsKeepAliveInRange(_ keepAlive: Duration) throws {
        _ = try makeClient { $0.keepAlive = keepAlive }
    }

    @Test func emptyClientIDNeedsACleanSession() throws {
        _ = try makeClient { $0.clientID = "" }
        let error = #expect(throws: MosquittoError.self) {
            try makeClient {
                $0.clientID = ""
                $0.cleanSession = false
            }
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func missingCAFileIsReportedAtCreation() {
        let error = #expect(throws: MosquittoError.self) {
            try makeClient {
                $0.broker = BrokerURL(host: "127.0.0.1", usesTLS: true)
                $0.tls.caFile = "/nonexistent/ca.pem"
            }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description.contains("/nonexistent/ca.pem") == true)
    }

    @Test func willWithWildcardTopicIsRejected() {
        let error = #expect(throws: MosquittoError.self) {
            try makeClient { $0.will = .init(topic: "coaty/#", payload: []) }
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func publishBeforeConnectIsNoConnection() throws {
        let client = try makeClient()
        let error = #expect(throws: MosquittoError.self) { try client.publish(topic: "a/b", payload: [1, 2, 3]) }
        #expect(error?.code == .noConnection)
        #expect(error?.operation == .publish)
        #expect(throws: MosquittoError.self) { try client.disconnect() }
    }

    @Test(arguments: ["a/#", "a/+", ""])
    func publishToInvalidTopicIsInvalidArgument(_ topic: String) throws {
        let client = try makeClient()
        let error = #expect(throws: MosquittoError.self) { try client.publish(topic: topic, payload: [UInt8]()) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.description.contains("topic '\(topic)'") == true)
    }

    @Test(arguments: [["a/#/b"], ["ok/+", "bad#"], []])
    func subscribeToInvalidFiltersIsInvalidArgument(_ filters: [String]) throws {
        let client = try makeClient()
        let error = #expect(throws: MosquittoError.self) { try client.subscribe(to: filters) }
        #expect(error?.code == .invalidArgument)
        #expect(filters.isEmpty || error?.description.contains("not a valid topic filter") == true)
    }

    @Test func closeEndsEventsAndLaterCallsThrowClosed() async throws {
        let client = try makeClient()
        client.close()
        client.close()  // a second close is harmless
        var iterator = client.events.makeAsyncIterator()
        #expect(await iterator.next(isolation: #isolation) == nil)
        for operation: () throws -> Void in [
            { try client.connect() },
            { _ = try client.subscribe(to: ["a"]) },
            { _ = try client.publish(topic: "a", payload: [UInt8]()) },
            { try client.setWill(nil) },
        ] {
            let error = #expect(throws: MosquittoError.self) { try operation() }
            #expect(error?.code == .closed)
        }
    }

    @Test func releasingTheClientEndsItsEvents() async throws {
        var client: MosquittoClient? = try makeClient()
        let events = try #require(client?.events)
        client = nil
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next(isolation: #isolation) == nil)
    }
}
