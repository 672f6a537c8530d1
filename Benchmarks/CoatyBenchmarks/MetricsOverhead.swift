import Agent
import CoreMetrics
import CoreTypes
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
                note: losses.isEmpty ? "\(count) per run, none lost" : "LOSS: \(losses.joined(separator: "; "))",
                pairedRatios: zip(measured, plain).map { $0 / $1 }))
    }

    /// Discover→Resolve p50: a requester and a responder (a child process) with metrics in one
    /// namespace, and a pair without in another, alternating blocks of 100 round trips.
    static func discover(_ settings: Settings, report: Report) async throws {
        let broker = settings.defaultBroker.url
        let namespaces = (plain: "metrics-plain", measured: "metrics-measured")
        let responders = try [false, true].map { reports in
            try ChildProcess.peer(
                "respond",
                ["--broker", broker, "--qos", "0", "--low-latency", "true", "--handlers", "pool", "--namespace",
                 reports ? namespaces.measured : namespaces.plain, "--metrics", "\(reports)"])
        }
        for responder in responders { _ = try await responder.expect("ready") }
        let rounds = settings.rounds
        var plain: [Double] = []
        var measured: [Double] = []
        for _ in 0..<settings.repeats {
            let plainRequester = try await RunningAgent.start("metrics requester", broker: broker) {
                $0.namespace = namespaces.plain
            }
            let measuredRequester = try await RunningAgent.start("metrics requester", broker: broker) {
                $0.namespace = namespaces.measured
                $0.metricsFactory = makeFactory()
            }
            for requester in [plainRequester, measuredRequester] {
                _ = try await RoundTrip.measure(.discover, agent: requester.agent, rounds: 0, warmup: rounds / 10)
            }
            var plainSamples: [Double] = []
            var measuredSamples: [Double] = []
            for block in 0..<max(1, rounds / 100) {
                for reports in block % 2 == 0 ? [false, true] : [true, false] {
                    let agent = reports ? measuredRequester.agent : plainRequester.agent
                    let samples = try await RoundTrip.measure(.discover, agent: agent, rounds: min(rounds, 100), warmup: 0)
                    if reports { measuredSamples += samples } else { plainSamples += samples }
                }
            }
            plain.append(Samples(plainSamples).median)
            measured.append(Samples(measuredSamples).median)
            await plainRequester.stop()
            await measuredRequester.stop()
        }
        for responder in responders {
            responder.send("done")
            await responder.wait()
        }
        report.add(
            Figure(
                section: section, name: "Discover→Resolve p50, QoS 0, pipelined, both agents reporting to Prometheus",
                unit: "µs", ours: measured, baseline: plain, baselineName: "the same without a metrics backend",
                target: .ratioAtMost(1.05), note: "\(rounds) rounds × \(settings.repeats), alternating blocks of 100",
                pairedRatios: zip(measured, plain).map { $0 / $1 }))
    }
}
