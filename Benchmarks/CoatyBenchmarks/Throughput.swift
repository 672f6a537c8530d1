import Agent
import BenchmarkFixtures
import CoreMetrics
import CoreTypes
import Foundation
import Synchronization

/// B1: Advertise throughput from one agent (a child process) to another (this process), which
/// observes the object type and gets each object decoded as ``Light`` (a `WireCodable` type), or
/// as ``CodableLight`` (the same through `Codable`); against the C pub→sub baseline sending the
/// same MQTT messages (two per Advertise: on `ADV:CoatyObject`, which nobody observes, and on
/// `ADV::com.example.Light`).
enum Throughput {
    struct Outcome {
        var rate: Double
        var received: Int
        var decodedAsLight: Int
        var droppedByAgent: Int
        /// CPU time per Advertise of the publisher's and of the subscriber's process, in µs.
        var publisherCPU: Double
        var subscriberCPU: Double
        /// Context switches per Advertise of all the subscriber's threads: how often a thread slept
        /// and was woken again (the pool consumer's wake-ups show here).
        var subscriberSwitches: Double
    }

    /// Where the subscriber's consumer task runs.
    enum Consumer: CaseIterable {
        /// A plain task in the global pool: each message that finds it waiting wakes a pool thread.
        case globalPool
        /// A task that prefers the agent's executor (`Agent.executor`), as latency-critical,
        /// non-blocking handlers may.
        case agentExecutor

        var label: String {
            switch self {
            case .globalPool: ""
            case .agentExecutor: ", consumer on the agent's executor"
            }
        }
    }

    /// One row of B1: where the consumer runs, and whether the light is the `Codable` one.
    struct Variant: Hashable {
        var consumer: Consumer
        var codable = false

        var label: String {
            (codable ? "decoded as CodableLight (Codable)" : "decoded as Light (WireCodable)") + consumer.label
        }

        /// The three rows at QoS 0, the two with `Light` at QoS 1.
        static func all(_ qos: MQTTQoS) -> [Variant] {
            let wire = Consumer.allCases.map { Variant(consumer: $0) }
            return qos == .atMostOnce ? wire + [Variant(consumer: .agentExecutor, codable: true)] : wire
        }
    }

    static func run(_ settings: Settings, report: Report) async throws {
        let payloadSize = try Advertise(object: Fixtures.light()).payload().count
        for qos in [MQTTQoS.atMostOnce, .atLeastOnce] {
            let count = qos == .atMostOnce ? settings.throughputCount : settings.throughputCount / 3
            var baseline: [Double] = []
            // At QoS 0, C whose subscriber hands each message to a second thread too (no target).
            var handingOff: [Double] = []
            var cCPU: [(publisher: Double, subscriber: Double)] = []
            var outcomes: [Variant: [Outcome]] = [:]
            var losses: [String] = []
            for _ in 0..<settings.repeats {
                let c = try await runBaseline(
                    settings.baselinePath,
                    ["throughput", "--port", settings.defaultBroker.port, "--count", "\(count)", "--size", "\(payloadSize)",
                     "--extra", "1", "--qos", "\(qos.rawValue)"])
                baseline.append(c["rate"] ?? .nan)
                cCPU.append((c["publisher_cpu_us"] ?? .nan, c["subscriber_cpu_us"] ?? .nan))
                if Int(c["received"] ?? 0) != count { losses.append("C baseline received \(Int(c["received"] ?? 0)) of \(count)") }
                if qos == .atMostOnce {
                    let handOff = try await runBaseline(
                        settings.baselinePath,
                        ["throughput", "--port", settings.defaultBroker.port, "--count", "\(count)", "--size", "\(payloadSize)",
                         "--extra", "1", "--qos", "0", "--hand-off"])
                    handingOff.append(handOff["rate"] ?? .nan)
                    if Int(handOff["received"] ?? 0) != count {
                        losses.append("C baseline handing off received \(Int(handOff["received"] ?? 0)) of \(count)")
                    }
                }
                for variant in Variant.all(qos) {
                    let outcome = try await measure(broker: settings.defaultBroker.url, count: count, qos: qos, variant: variant)
                    outcomes[variant, default: []].append(outcome)
                    if outcome.received != count || outcome.decodedAsLight != count || outcome.droppedByAgent != 0 {
                        losses.append(
                            "received \(outcome.received) of \(count), \(outcome.decodedAsLight) as Light, \(outcome.droppedByAgent) dropped")
                    }
                }
            }
            let cNote =
                "C: publisher \(Report.format(Samples(cCPU.map(\.publisher)).median)) µs, "
                + "subscriber \(Report.format(Samples(cCPU.map(\.subscriber)).median)) µs"
            for variant in Variant.all(qos) {
                let runs = outcomes[variant] ?? []
                report.add(
                    Figure(
                        section: "B1 throughput",
                        name: "Advertise of a \(payloadSize)-byte payload, QoS \(qos.rawValue), \(variant.label)",
                        unit: "Advertise/s", ours: runs.map(\.rate), baseline: baseline,
                        baselineName: "C pub→sub, 2 MQTT messages per Advertise", target: .ratioAtLeast(0.8),
                        note: (losses.isEmpty ? "\(count) per run, none lost" : "LOSS: \(losses.joined(separator: "; "))")
                            + "; CPU per Advertise: publisher \(Report.format(Samples(runs.map(\.publisherCPU)).median)) µs, "
                            + "subscriber \(Report.format(Samples(runs.map(\.subscriberCPU)).median)) µs (\(cNote)); "
                            + "subscriber context switches per Advertise "
                            + String(format: "%.2f", Samples(runs.map(\.subscriberSwitches)).median),
                        pairedRatios: zip(runs, baseline).map { $0.rate / $1 }))
            }
            if !handingOff.isEmpty {
                let runs = outcomes[Variant(consumer: .globalPool)] ?? []
                report.add(
                    Figure(
                        section: "B1 throughput",
                        name: "Advertise of a \(payloadSize)-byte payload, QoS 0, \(Variant(consumer: .globalPool).label), "
                            + "against C that hands off too",
                        unit: "Advertise/s", ours: runs.map(\.rate), baseline: handingOff,
                        baselineName: "C pub→sub, the subscriber handing each message to a second thread",
                        target: nil, note: "the first row's runs, each beside a C run of its repetition",
                        pairedRatios: zip(runs, handingOff).map { $0.rate / $1 }))
            }
        }
    }

    /// One run: a publisher child advertises `count` lights as fast as it can; this process counts them.
    ///
    /// With `metricsFactory`, the subscriber reports to it and the publisher to a Prometheus registry
    /// of its own (the metrics section); without, both report to swift-metrics' no-op handler.
    static func measure(
        broker: String, count: Int, qos: MQTTQoS, variant: Variant, metricsFactory: (any MetricsFactory)? = nil
    ) async throws -> Outcome {
        let placement = variant.consumer
        let objectType = variant.codable ? CodableLight.objectType : Light.objectType
        let subscriber = try await RunningAgent.start("B1 subscriber", broker: broker, qos: qos) {
            $0.inboundBufferSize = 2 * count + 1000
            $0.observerBufferSize = count + 1000
            $0.metricsFactory = metricsFactory
        }
        let events = try await subscriber.agent.observeAdvertise(objectType: objectType)
        let peer = try ChildProcess.peer(
            "advertise",
            ["--broker", broker, "--count", "\(count)", "--qos", "\(qos.rawValue)"] + (variant.codable ? ["--codable", "true"] : [])
                + (metricsFactory != nil ? ["--metrics", "true"] : []))
        _ = try await peer.expect("ready")

        let clock = ContinuousClock()
        let progress = Progress()
        let consumer = Task(executorPreference: placement == .agentExecutor ? subscriber.agent.executor : nil) {
            var received = 0
            var lights = 0
            // An early end (the agent stopped) shows as fewer events received.
            do {
                for try await event in events {
                    received += 1
                    if event.event.object is Light || event.event.object is CodableLight { lights += 1 }
                    progress.record(received, at: clock.now)
                    if received == count { break }
                }
            } catch {}
            return (received, lights)
        }
        let start = clock.now
        let cpuBefore = [ProcessCounters(pid: peer.pid), ProcessCounters(pid: getpid())]
        peer.send("go")
        await progress.waitUntilStalled(orReached: count, stall: .seconds(3), consumer: consumer)
        let (received, lights) = await consumer.value
        let last = progress.lastInstant ?? clock.now
        let cpuAfter = [ProcessCounters(pid: peer.pid), ProcessCounters(pid: getpid())]
        let cpu = zip(cpuBefore, cpuAfter).map { ($1.cpuSeconds - $0.cpuSeconds) * 1e6 / Double(max(received, 1)) }
        let switches = Double(cpuAfter[1].switches - cpuBefore[1].switches) / Double(max(received, 1))
        peer.send("done")
        await peer.wait()
        let statistics = subscriber.agent.statistics
        await subscriber.stop()
        return Outcome(
            rate: Double(received) / start.duration(to: last).seconds, received: received, decodedAsLight: lights,
            droppedByAgent: statistics.droppedObserverEvents + statistics.rejectedPayloads,
            publisherCPU: cpu[0], subscriberCPU: cpu[1], subscriberSwitches: switches)
    }

    /// The publisher child: advertises `count` lights (``CodableLight``s when `codable`) when told "go";
    /// with `metrics`, its agent reports to a Prometheus registry.
    static func publisherPeer(broker: String, count: Int, qos: MQTTQoS, codable: Bool, metrics: Bool) async throws {
        let running = try await RunningAgent.start("B1 publisher", broker: broker, qos: qos) {
            if metrics { $0.metricsFactory = MetricsOverhead.makeFactory() }
        }
        let light: any CoatyObject = codable ? Fixtures.codableLight() : Fixtures.light()
        tell("ready")
        _ = await readStdinLine()
        for _ in 0..<count { try running.agent.advertise(light) }
        tell("sent")
        _ = await readStdinLine()
        await running.stop()
    }
}

/// How far a consumer got, and when; shared between the consumer task and the one watching it.
final class Progress: Sendable {
    private struct State {
        var count = 0
        var last: ContinuousClock.Instant?
    }

    private let state = Mutex(State())

    func record(_ count: Int, at instant: ContinuousClock.Instant) {
        state.withLock {
            $0.count = count
            $0.last = instant
        }
    }

    var count: Int { state.withLock { $0.count } }
    var lastInstant: ContinuousClock.Instant? { state.withLock { $0.last } }

    /// Returns when `target` is reached, or cancels `consumer` once nothing has arrived for `stall`.
    func waitUntilStalled<T>(orReached target: Int, stall: Duration, consumer: Task<T, Never>) async {
        var seen = -1
        var quietSince = ContinuousClock.now
        while count < target {
            try? await Task.sleep(for: .milliseconds(20))
            let now = count
            if now != seen {
                seen = now
                quietSince = .now
            } else if ContinuousClock.now - quietSince > stall {
                consumer.cancel()
                return
            }
        }
    }
}
