import Foundation

/// B5 (memory) and B6 (scale): agents in `agent-probe`, a process without Foundation, against
/// the C baseline's clients.
enum Memory {
    /// Megabytes (10⁶ bytes, as the target is stated) from the kibibytes /proc reports.
    static func megabytes(_ kibibytes: Double) -> Double { kibibytes * 1024 / 1_000_000 }

    static func run(_ settings: Settings, report: Report) async throws {
        let broker = settings.defaultBroker
        var baseline: [Double] = []
        var ours: [(megabytes: Double, sharedRuntime: Bool)] = []
        for _ in 0..<settings.repeats {
            baseline.append(megabytes(try await runBaseline(settings.baselinePath, ["idle", "--port", broker.port])["rss_kb"] ?? .nan))
            ours.append(try await idle(settings.probePath, broker: broker))
        }
        let linking = ours.last?.sharedRuntime == true ? "Swift runtime in shared libraries" : "Swift runtime linked in (--static-swift-stdlib)"
        report.add(
            Figure(
                section: "B5 memory", name: "resident memory of an idle agent process, \(linking)", unit: "MB",
                ours: ours.map(\.megabytes), baseline: baseline, baselineName: "C libmosquitto client, idle",
                target: .valueAtMost(15), note: "1 MB = 10⁶ bytes; coaty-js measured here: 68 MB"))
        if let dynamicProbePath = settings.dynamicProbePath {
            // The same agent built with swift build's defaults, for comparison: the shared Swift
            // libraries are mapped whole, and the pages they touch count as this process's.
            var dynamic: [Double] = []
            for _ in 0..<settings.repeats { dynamic.append(try await idle(dynamicProbePath, broker: broker).megabytes) }
            report.add(
                Figure(
                    section: "B5 memory", name: "resident memory of an idle agent process, Swift runtime in shared libraries (swift build's default)",
                    unit: "MB", ours: dynamic, baseline: baseline, baselineName: "C libmosquitto client, idle",
                    note: "for comparison; not the deployed form"))
        }

        let count = settings.soakMessages
        let every = max(count / 10, 1)
        let lines = try await probe(settings.probePath, ["soak", "--broker", broker.url, "--count", "\(count)", "--every", "\(every)"])
        let checkpoints = lines.filter { $0["at"] != nil }
        guard let steady = checkpoints.first?["rss_kb"], let final = checkpoints.last?["rss_kb"], let done = lines.last
        else {
            report.note("B5 soak produced no checkpoints")
            return
        }
        let peak = checkpoints.compactMap { $0["rss_kb"] }.max() ?? final
        report.add(
            Figure(
                section: "B5 memory", name: "resident memory after \(count) Advertises (2 agents in one process)",
                unit: "MB", ours: [megabytes(final)], baseline: [megabytes(steady)],
                baselineName: "the same process after \(every) (steady state)", target: .ratioAtMost(1.05),
                note: "peak \(Report.format(megabytes(peak))) MB, received \(Int(done["received"] ?? 0)), dropped \(Int(done["dropped"] ?? 0)), "
                    + "\(Report.format(done["rate"] ?? .nan)) Advertise/s with at most 2,000 in flight"))
    }

    static func scale(_ settings: Settings, count: Int, report: Report) async throws {
        let broker = settings.defaultBroker
        var ours: [[String: Double]] = []
        var baseline: [[String: Double]] = []
        let replySize = try RoundTrip.payloadSizes().reply
        for _ in 0..<settings.repeats {
            baseline.append(
                try await runBaseline(
                    settings.baselinePath,
                    ["many", "--port", broker.port, "--clients", "\(count)", "--reply-size", "\(replySize)"]))
            ours.append(try await probe(settings.probePath, ["scale", "--broker", broker.url, "--agents", "\(count)"]).last ?? [:])
        }
        func figure(_ name: String, _ key: String, _ baselineKey: String, unit: String, scale: Double, baselineName: String) {
            let mine = ours.map { ($0[key] ?? .nan) * scale }
            let theirs = baseline.map { ($0[baselineKey] ?? .nan) * scale }
            report.add(
                Figure(
                    section: "B6 scale: \(count) agents in one process", name: name, unit: unit, ours: mine, baseline: theirs,
                    baselineName: baselineName, pairedRatios: zip(mine, theirs).map { $0 / $1 }))
        }
        figure(
            "join: all connected, subscribed, identity advertised", "join_s", "join_s", unit: "ms", scale: 1000,
            baselineName: "C: \(count) clients connect and subscribe, one poll() loop")
        figure(
            "one Discover answered by all: Discover to last Resolve", "fanin_s", "fanin_s", unit: "ms", scale: 1000,
            baselineName: "C: one request, \(count) replies")
        figure(
            "memory per agent", "rss_per_agent_kb", "rss_per_client_kb", unit: "KiB", scale: 1,
            baselineName: "C: per libmosquitto client")
        let resolves = ours.map { Int($0["resolves"] ?? 0) }
        let replies = baseline.map { Int($0["replies"] ?? 0) }
        report.note(
            "B6 (\(count) agents): Resolves received per run: \(resolves.map(String.init).joined(separator: ", ")) of \(count); "
                + "C replies: \(replies.map(String.init).joined(separator: ", "))")
    }

    /// An idle agent's resident memory, from agent-probe at `path`, and whether its Swift runtime is shared.
    static func idle(_ path: String, broker: BrokerEndpoint) async throws -> (megabytes: Double, sharedRuntime: Bool) {
        let line = try await probe(path, ["idle", "--broker", broker.url]).last ?? [:]
        return (megabytes(line["rss_kb"] ?? .nan), line["shared_swift_runtime"] == 1)
    }

    /// Runs agent-probe and returns every key/value line it printed.
    static func probe(_ path: String, _ arguments: [String]) async throws -> [[String: Double]] {
        let child = try ChildProcess(executable: path, arguments: arguments)
        var lines: [[String: Double]] = []
        while let line = try? await child.readLine() { lines.append(keyValues(line)) }
        let status = await child.wait()
        guard status == 0 else {
            throw ChildProcess.Failure(description: "agent-probe \(arguments.joined(separator: " ")) exited with \(status)")
        }
        return lines
    }
}
