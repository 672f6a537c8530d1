import Agent
import CoreMetrics
import CoreTypes
import Foundation
import Prometheus

/// What metrics cost (issue 33): B1 (Advertise QoS 0) and Discover→Resolve p50 with every agent
/// reporting to a Prometheus registry (swift-prometheus, as `agent-runner run --metrics` does)
/// against the same without a backend (swift-metrics' no-op handler), in alternation in one run.
enum MetricsOverhead {
    static let section = "Metrics overhead"

    /// A fresh Prometheus registry's factory, for one agent.
    static func makeFactory() -> any MetricsFactory {
        PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())
    }

    static func run(_ settings: Settings, report: Report) async throws {
        try await throughput(settings, report: report)
        try await discover(settings, report: report)
    }

    /// B1's first row, with and without metrics, alternating runs (which goes first alternates too).
    static func throughput(_ settings: Settings, report: Report) async throws {
        let count = settings.throughputCount
        let variant = Throughput.Variant(consumer: .globalPool)
        var plain: [Double] = []
        var measured: [Double] = []
        var losses: [String] = []
        for repetition in 0..<settings.repeats {
            for reports in repetition % 2 == 0 ? [false, true] : [true, false] {
                let outcome = try await Throughput.measure(
                    broker: settings.defaultBroker.url, count: count, qos: .atMostOnce, variant: variant,
                    metricsFactory: reports ? makeFactory() : nil)
                if outcome.received != count || outcome.droppedByAgent != 0 {
                    losses.append("\(reports ? "with" : "without") metrics: received \(outcome.received) of \(count)")
                }
                if reports { measured.append(outcome.rate) } else { plain.append(outcome.rate) }
            }
        }
        report.add(
            Figure(
                section: section, name: "B1 Advertise QoS 0, \(variant.label), both agents reporting to Prometheus",
                unit: "Advertise/s", ours: measured, baseline: plain, baselineName: "the same without a metrics backend",
                target: .ratioAtLeast(0.95),
                note: (losses.isEmpty ? "\(count) per run, none lost" : "LOSS: \(losses.joined(separator: "; "))")
                    + "; \(perRepetition(zip(measured, plain).map { $0 / $1 }))",
                pairedRatios: zip(measured, plain).map { $0 / $1 }))
    }

    /// Discover→Resolve p50: a requester and a responder (a child process) with metrics in one
    /// namespace, and a pair without in another, alternating blocks of 100 round trips. Every
    /// repetition starts its own four agents (which starts first alternates): on this shared
    /// machine two processes can be scheduled unevenly for a whole run.
    static func discover(_ settings: Settings, report: Report) async throws {
        let rounds = settings.rounds
        var plain: [Double] = []
        var measured: [Double] = []
        for repetition in 0..<settings.repeats {
            let order = repetition % 2 == 0 ? [false, true] : [true, false]
            let (plainSamples, measuredSamples) = try await discoverRepetition(
                broker: settings.defaultBroker.url, rounds: rounds, order: order)
            plain.append(Samples(plainSamples).median)
            measured.append(Samples(measuredSamples).median)
        }
        report.add(
            Figure(
                section: section, name: "Discover→Resolve p50, QoS 0, pipelined, both agents reporting to Prometheus",
                unit: "µs", ours: measured, baseline: plain, baselineName: "the same without a metrics backend",
                target: .ratioAtMost(1.05),
                note: "\(rounds) rounds × \(settings.repeats), alternating blocks of 100; "
                    + perRepetition(zip(measured, plain).map { $0 / $1 }),
                pairedRatios: zip(measured, plain).map { $0 / $1 }))
    }

    /// One repetition: the responders and requesters of both pairs (started in `order`, `true`
    /// for the pair with metrics), then `rounds` round trips of each. Returns both pairs' samples.
    private static func discoverRepetition(
        broker: String, rounds: Int, order: [Bool]
    ) async throws -> (plain: [Double], measured: [Double]) {
        func namespace(_ reports: Bool) -> String { reports ? "metrics-measured" : "metrics-plain" }
        var responders: [ChildProcess] = []
        var requesters: [Bool: RunningAgent] = [:]
        for reports in order {
            let responder = try ChildProcess.peer(
                "respond",
                ["--broker", broker, "--qos", "0", "--low-latency", "true", "--handlers", "pool", "--namespace",
                 namespace(reports), "--metrics", "\(reports)"])
            _ = try await responder.expect("ready")
            responders.append(responder)
            requesters[reports] = try await RunningAgent.start("metrics requester", broker: broker) {
                $0.namespace = namespace(reports)
                if reports { $0.metricsFactory = makeFactory() }
            }
        }
        var samples: [Bool: [Double]] = [:]
        for reports in order {
            guard let agent = requesters[reports]?.agent else { continue }
            _ = try await RoundTrip.measure(.discover, agent: agent, rounds: 0, warmup: rounds / 10)
        }
        for block in 0..<max(1, rounds / 100) {
            for reports in block % 2 == 0 ? order : order.reversed() {
                guard let agent = requesters[reports]?.agent else { continue }
                samples[reports, default: []] += try await RoundTrip.measure(
                    .discover, agent: agent, rounds: min(rounds, 100), warmup: 0)
            }
        }
        for requester in requesters.values { await requester.stop() }
        for responder in responders {
            responder.send("done")
            await responder.wait()
        }
        return (samples[false] ?? [], samples[true] ?? [])
    }

    /// The ratio of each repetition, to show how far the machine's load moved them.
    private static func perRepetition(_ ratios: [Double]) -> String {
        "ratios per repetition " + ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ")
    }
}
