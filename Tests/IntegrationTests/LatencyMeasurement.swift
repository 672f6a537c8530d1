import Agent
import Foundation
import Testing
import TestSupport

/// Measures the two-way pattern Coaty uses (subscribe to a fresh response topic, wait for the SUBACK,
/// publish the request, wait for the answer) with and without `TCP_QUICKACK` and `TCP_NODELAY`,
/// against a broker with mosquitto's default socket settings (Nagle on).
///
/// It prints numbers and asserts only that every answer arrived: speed is never asserted in tests.
/// Run it with `COATY_MEASURE_LATENCY=1 swift test --filter LatencyMeasurement`.
@Suite(
    .enabled(
        if: ProcessInfo.processInfo.environment["COATY_MEASURE_LATENCY"] != nil,
        "prints round-trip times only; set COATY_MEASURE_LATENCY=1 to run it"),
    .timeLimit(.minutes(5)))
struct LatencyMeasurement {
    struct Setting: CustomStringConvertible, Sendable {
        let quickAck: Bool
        let noDelay: Bool
        var description: String { "TCP_QUICKACK \(quickAck ? "on " : "off"), TCP_NODELAY \(noDelay ? "on " : "off")" }
    }

    static let rounds = 200
    static let settings = [
        Setting(quickAck: true, noDelay: true),
        Setting(quickAck: false, noDelay: true),
        Setting(quickAck: true, noDelay: false),
        Setting(quickAck: false, noDelay: false),
    ]

    @Test func subscribeThenRequestRoundTrip() async throws {
        try await TestBroker.withBroker { broker in
            var report = [
                "round trips over \(broker.url), \(Self.rounds) rounds each (median / p90 / max in ms, rounds over 20 ms):"
            ]
            for setting in Self.settings {
                let (full, request) = try await measure(setting, broker: broker.url)
                report.append(
                    "  \(setting)  subscribe→answer \(Self.summary(full))   publish→answer \(Self.summary(request))")
            }
            print(report.joined(separator: "\n"))
        }
    }

    /// Runs `rounds` Discover→Resolve-like exchanges between a requester and an echo client.
    private func measure(_ setting: Setting, broker: BrokerURL) async throws -> ([Duration], [Duration]) {
        let tag = "lat" + UUID().uuidString.prefix(8).lowercased()
        let configure: @Sendable (inout MosquittoClient.Configuration) -> Void = {
            $0.usesTCPQuickAck = setting.quickAck
            $0.usesTCPNoDelay = setting.noDelay
        }
        var requester = try TestClient("\(tag)-requester", broker: broker, configure: configure)
        try await requester.connect()

        // The echo client answers every request on the topic named in its payload.
        let (ready, readySignal) = AsyncStream.makeStream(of: Void.self)
        let echoTask = Task {
            var echo = try TestClient("\(tag)-echo", broker: broker, configure: configure)
            try await echo.connect()
            try await echo.subscribe(["\(tag)/request"])
            readySignal.yield()
            while let event = await echo.nextOrEnd() {
                guard case .message(let message) = event else { continue }
                _ = try echo.client.publish(
                    topic: String(decoding: message.payload, as: UTF8.self), payload: [0x7B, 0x7D])
            }
        }
        defer { echoTask.cancel() }
        var readiness = ready.makeAsyncIterator()
        _ = await readiness.next(isolation: #isolation)

        let clock = ContinuousClock()
        var full: [Duration] = []
        var request: [Duration] = []
        for round in 0..<Self.rounds {
            let responseTopic = "\(tag)/response/\(round)"
            let start = clock.now
            try await requester.subscribe([responseTopic])
            let published = clock.now
            _ = try requester.client.publish(topic: "\(tag)/request", payload: Array(responseTopic.utf8))
            let answer = try await requester.nextMessage()
            let end = clock.now
            #expect(answer.topic == responseTopic)
            full.append(start.duration(to: end))
            request.append(published.duration(to: end))
            _ = try requester.client.unsubscribe(from: [responseTopic])
        }
        requester.client.close()
        return (full, request)
    }

    private static func summary(_ samples: [Duration]) -> String {
        let sorted = samples.sorted()
        func milliseconds(_ duration: Duration) -> String {
            let (seconds, attoseconds) = duration.components
            let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            return String(format: "%6.2f", value)
        }
        let median = sorted[sorted.count / 2]
        let p90 = sorted[sorted.count * 9 / 10]
        let stalled = sorted.count { $0 > .milliseconds(20) }
        return "\(milliseconds(median)) / \(milliseconds(p90)) / \(milliseconds(sorted[sorted.count - 1]))"
            + String(format: " (%3d > 20 ms)", stalled)
    }
}
