import Agent
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(2)))
struct ManyClientsTests {
    static let clientCount = 1_100
    /// Each client holds its socket (libmosquitto's socket pair is closed); the broker inherits the
    /// limit too.
    static let neededFiles = clientCount * 2 + 256

    let tag = "t" + UUID().uuidString.prefix(8).lowercased()

    @Test(
        .enabled(
            if: FileLimit.hardLimit >= neededFiles,
            "RLIMIT_NOFILE's hard limit is below \(neededFiles), so 1,100 clients cannot be opened"))
    func elevenHundredClientsConnectAndReceiveAMessage() async throws {
        try FileLimit.raiseSoftLimit(to: Self.neededFiles)
        try await TestBroker.withBroker { broker in
            let topic = "\(tag)/all"
            let payload = Array("to everyone".utf8)
            let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: InboundMessage.self) { group in
                for index in 0..<Self.clientCount {
                    group.addTask {
                        var client = try TestClient("\(tag)-\(index)", broker: broker.url)
                        do {
                            try await client.connect()
                            try await client.subscribe([topic])
                            readySignal.yield()
                        } catch {
                            readySignal.yield()  // let the publisher go on; the group reports the error
                            throw error
                        }
                        return try await client.nextMessage()
                    }
                }
                var readyCount = 0
                for await _ in ready {
                    readyCount += 1
                    if readyCount == Self.clientCount { break }
                }
                let openFiles = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
                #expect(openFiles > 1024, "select() would have coped with \(openFiles) descriptors")
                // With libmosquitto's socket pairs still open there would be three a client.
                #expect(openFiles < 2 * Self.clientCount, "\(openFiles) descriptors for \(Self.clientCount) clients")

                var publisher = try TestClient("\(tag)-publisher", broker: broker.url)
                try await publisher.connect()
                _ = try publisher.client.publish(topic: topic, payload: payload)

                var receivedCount = 0
                for try await message in group {
                    #expect(message.topic == topic)
                    #expect(message.payload == payload)
                    receivedCount += 1
                }
                #expect(receivedCount == Self.clientCount)
            }
        }
    }
}

/// Reads and raises this process's limit on open files (`RLIMIT_NOFILE`).
enum FileLimit {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `RLIM_INFINITY` is `rlim_t.max`; the C macro does not import.
    private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

    /// The most the soft limit can be raised to without privileges.
    static var hardLimit: Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        return limit.rlim_max == rlim_t.max ? Int.max : Int(limit.rlim_max)
    }

    /// Raises the soft limit to `count` if it is lower; child processes started later inherit it.
    static func raiseSoftLimit(to count: Int) throws {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else {
            throw Failure(description: "getrlimit(RLIMIT_NOFILE) failed: errno \(errno)")
        }
        guard limit.rlim_cur != rlim_t.max, Int(limit.rlim_cur) < count else { return }
        limit.rlim_cur = rlim_t(count)
        guard setrlimit(resource, &limit) == 0 else {
            throw Failure(description: "setrlimit(RLIMIT_NOFILE, \(count)) failed: errno \(errno)")
        }
    }
}
