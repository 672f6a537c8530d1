import Agent
import BenchmarkFixtures
import CoreTypes
import Foundation

// The performance report (issue 6, issue 8): every figure next to a baseline measured in the same
// run, in alternation. scripts/benchmark.sh builds everything in release, starts the brokers and
// runs `CoatyBenchmarks all`, which writes docs/performance.md.
//
//   CoatyBenchmarks codec [seconds]                 B3 and the matcher only; no broker needed
//   CoatyBenchmarks all --port P --nodelay-port Q --baseline PATH --probe PATH [--dynamic-probe PATH]
//                       [--markdown FILE] [--repeats N] [--quick] [--only b1,b2,…,metrics]
//   CoatyBenchmarks peer advertise|respond …        the child processes of B1 and B2
//   CoatyBenchmarks loop encode|publications|decode|parse|route [count]   one hot path, for callgrind

/// A broker the script started.
struct BrokerEndpoint {
    var port: String
    var isDefault: Bool
    var url: String { "mqtt://127.0.0.1:\(port)" }
}

/// What to run and how long.
struct Settings {
    var defaultBroker = BrokerEndpoint(port: "1883", isDefault: true)
    var nodelayBroker = BrokerEndpoint(port: "1884", isDefault: false)
    var baselinePath = ".build/release/mqtt-baseline"
    var probePath = ".build/release/agent-probe"
    /// An agent-probe built with the Swift runtime in shared libraries, for B5's comparison row.
    var dynamicProbePath: String?
    var repeats = 3
    var throughputCount = 100_000
    var rounds = 1_000
    var stallRounds = 100
    var fanOutMessages = 20_000
    var soakMessages = 1_000_000
    /// B6: how many agents join one process, one run of the section per count.
    var scaleAgents = [1_000, 10_000]
    var codecBudget = Duration.seconds(6)
    var markdownPath: String?
    var sections: Set<String> = ["codec", "b1", "b7", "b2", "stall", "b4", "b5", "b6", "metrics"]
    /// The request publication the QoS 1 round trips use: the agent's default.
    var chosenPublication = Agent.Configuration().requestPublication

    init(arguments: [String]) {
        var index = 0
        func value() -> String {
            index += 1
            guard index < arguments.count else { fatalError("\(arguments[index - 1]) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--port": defaultBroker.port = value()
            case "--nodelay-port": nodelayBroker.port = value()
            case "--baseline": baselinePath = value()
            case "--probe": probePath = value()
            case "--dynamic-probe": dynamicProbePath = value()
            case "--markdown": markdownPath = value()
            case "--repeats": repeats = Int(value()) ?? repeats
            case "--only": sections = Set(value().split(separator: ",").map(String.init))
            case "--quick":
                throughputCount = 20_000
                rounds = 300
                stallRounds = 30
                fanOutMessages = 5_000
                soakMessages = 100_000
                scaleAgents = [200, 1_000]
                codecBudget = .seconds(2)
            default: fatalError("unknown option \(arguments[index])")
            }
            index += 1
        }
    }
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The machine and the run, for the report's header.
func machineDescription(_ settings: Settings, started: Date, finished: Date) -> [String] {
    func shell(_ command: String) -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "?" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let formatter = ISO8601DateFormatter()
    let cpu = shell("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2")
    return [
        "date: \(formatter.string(from: started)) (took \(Int(finished.timeIntervalSince(started))) s)",
        "machine: \(shell("uname -srm")), \(cpu.isEmpty ? "?" : cpu.trimmingCharacters(in: .whitespaces)), "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(shell("free -m | awk '/Mem:/ {print $2}'")) MB memory",
        "load average at the end: \(shell("cut -d' ' -f1-3 /proc/loadavg")) (the machine is shared: every figure is "
            + "compared with its baseline measured in alternation in the same run)",
        "toolchain: \(shell("swift --version 2>&1 | head -1")); broker: \(shell("mosquitto -h 2>/dev/null | head -1; /usr/sbin/mosquitto -h 2>/dev/null | head -1").split(separator: "\n").first ?? "?")",
        "build: release, the Swift runtime "
            + (SwiftRuntime.isShared == false ? "linked into each program (`--static-swift-stdlib`, as deployed)" : "in shared libraries"),
        "repetitions: \(settings.repeats) (medians; latency ratios are the median of the per-repetition ratios, "
            + "each B2 figure's rounds alternating with C's in blocks of 100, C sending the same messages)",
        "brokers: mosquitto with `max_queued_messages 0` on port \(settings.defaultBroker.port) (default TCP settings) "
            + "and the same with `set_tcp_nodelay true` on port \(settings.nodelayBroker.port)",
    ]
}

let preamble = """
    # Performance

    Written by `scripts/benchmark.sh` (do not edit by hand; run it again). Every figure is measured
    next to its baseline in the same run, in alternation, and reported as a ratio: raw libmosquitto
    from C (`Benchmarks/MQTTBaseline`, the `mqtt-baseline` target) for messaging, `JSONSerialization`
    and `JSONEncoder` for decoding and encoding. Throughput ratios are ours ÷ baseline (higher is
    better); latency, cost and memory ratios are ours ÷ baseline (lower is better). Speed is never
    asserted in tests. What profiling found and changed: [profiling.md](profiling.md).
    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "peer":
    let role = arguments.dropFirst().first ?? ""
    let broker = option("--broker", in: arguments) ?? "mqtt://127.0.0.1:1883"
    let qos = MQTTQoS(rawValue: Int(option("--qos", in: arguments) ?? "0") ?? 0) ?? .atMostOnce
    switch role {
    case "advertise":
        blockingMain {
            try await Throughput.publisherPeer(
                broker: broker, count: Int(option("--count", in: arguments) ?? "") ?? 100_000, qos: qos,
                codable: option("--codable", in: arguments) == "true", metrics: option("--metrics", in: arguments) == "true")
        }
    case "iosource":
        blockingMain {
            try await IoThroughput.sourcePeer(
                broker: broker, count: Int(option("--count", in: arguments) ?? "") ?? 100_000)
        }
    case "respond":
        blockingMain {
            try await RoundTrip.responderPeer(
                broker: broker, qos: qos, usesLowLatencySocket: option("--low-latency", in: arguments) != "false",
                handlers: RoundTrip.Handlers(rawValue: option("--handlers", in: arguments) ?? "pool") ?? .pool,
                namespace: option("--namespace", in: arguments) ?? "-", metrics: option("--metrics", in: arguments) == "true")
        }
    default:
        fatalError("unknown peer role \(role)")
    }
case "loop":
    let path = arguments.dropFirst().first ?? ""
    let count = Int(arguments.dropFirst(2).first ?? "") ?? 20_000
    if path == "route" {
        // The agent's inbound path for an Advertise of Light, 10 observers (B4's smallest case).
        blockingMain {
            print(path, count, try await FanOut.costPerMessage(observers: 10, messages: count) > 0)
        }
    } else {
        try Codec.loop(path, count: count)
    }
case "diag":
    blockingMain {
        try await RoundTrip.diagnose(
            port: arguments.dropFirst().first ?? "1883", rounds: Int(arguments.dropFirst(2).first ?? "") ?? 1000,
            pipelined: arguments.dropFirst(3).first != "after")
    }
case "all":
    let settings = Settings(arguments: Array(arguments.dropFirst()))
    let report = Report()
    let sections = settings.sections
    if sections.contains("codec") { try Codec.run(budget: settings.codecBudget, repeats: 5, report: report) }
    if sections.contains("b4") { try await FanOut.run(settings, report: report) }
    if sections.contains("b1") { try await Throughput.run(settings, report: report) }
    if sections.contains("b7") { try await IoThroughput.run(settings, report: report) }
    if sections.contains("b2") { try await RoundTrip.run(settings, report: report) }
    if sections.contains("stall") { try await RoundTrip.stallDemonstration(settings, report: report) }
    if sections.contains("b5") { try await Memory.run(settings, report: report) }
    if sections.contains("b6") {
        for count in settings.scaleAgents { try await Memory.scale(settings, count: count, report: report) }
    }
    if sections.contains("metrics") { try await MetricsOverhead.run(settings, report: report) }
    let markdown = report.markdown(
        machine: machineDescription(settings, started: report.started, finished: Date()), preamble: preamble)
    if let path = settings.markdownPath {
        try markdown.write(toFile: path, atomically: true, encoding: .utf8)
        print("wrote \(path)")
    } else {
        print(markdown)
    }
default:
    // `codec [seconds]`, or no arguments: the broker-free figures only.
    let seconds = Double(arguments.dropFirst().first ?? "") ?? 3
    let report = Report()
    try Codec.run(budget: .milliseconds(Int(seconds * 1000)), repeats: 3, report: report)
}

/// Runs `work` in the global pool while the main thread blocks, instead of awaiting it: valgrind
/// 3.19 stops with an internal error when dispatch's main loop suspends the main thread
/// (`rt_sigsuspend`), so the loops, `diag` and the peers that callgrind counts run this way.
func blockingMain(_ work: @escaping @Sendable () async throws -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            try await work()
        } catch {
            FileHandle.standardError.write(Data("failed: \(error)\n".utf8))
            exit(1)
        }
        done.signal()
    }
    done.wait()
}
