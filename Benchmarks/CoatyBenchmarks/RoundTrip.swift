import Agent
import BenchmarkFixtures
import CoreTypes
import Foundation

/// B2: two-way round trips between two agents (requester here, responder in a child process),
/// p50 and p99, against a C request→reply round trip that does not subscribe per request and sends
/// the same messages (payload sizes, and two request messages for an Update of a custom type).
enum RoundTrip {
    enum Pattern: String, CaseIterable {
        case discover = "Discover→Resolve"
        case query = "Query→Retrieve"
        case update = "Update→Complete"
        case call = "Call→Return"
    }

    static let operation = "com.example.bench.add"

    /// Where the responder's handlers run.
    enum Handlers: String {
        /// A task in the global pool per request kind, iterating its `observe…` stream.
        case pool
        /// The same tasks on the agent's executor (its network thread).
        case executor
        /// `serve…` handlers, called by the agent as it routes each request.
        case inline
    }

    struct Variant {
        var qos: MQTTQoS = .atMostOnce
        var publication: Agent.RequestPublication
        var usesLowLatencySocket = true
        var responseSubscription = Agent.ResponseSubscription.perRequest
        /// Whether the requester runs on the agent's executor.
        var onAgentExecutor = false
        /// Whether the requester's network thread polls for responses (the default
        /// `responseBusyPoll`) or sleeps until they arrive, as C's requester does.
        var busyPoll = true
        /// How the C round trip this variant is compared with runs; only plain C carries targets.
        var baseline = Baseline.plain

        var label: String {
            let mode = publication == .pipelined ? "pipelined" : "after SUBACK"
            return "QoS \(qos.rawValue), \(mode)" + (usesLowLatencySocket ? "" : ", no QUICKACK/NODELAY")
                + (responseSubscription == .namespaceWide ? ", namespace-wide response subscription" : "")
                + (onAgentExecutor ? ", requester on the agent's executor" : "")
                + (busyPoll ? "" : ", no busy poll") + baseline.label
        }
    }

    /// The C round trip a variant is compared with.
    enum Baseline {
        /// Each side drives its socket from one thread and sleeps until a message arrives.
        case plain
        /// The C requester polls for its reply too: the same technique on both sides, to show what
        /// is left of the distance.
        case polls
        /// Each C side hands every message from its network thread to a second thread that answers
        /// it or sends the next request: the threading of the defaults, where handlers and the
        /// requester's task run in the global pool.
        case handsOff

        var label: String {
            switch self {
            case .plain: ""
            case .polls: ", against C that polls too"
            case .handsOff: ", against C that hands off too"
            }
        }

        var arguments: [String] {
            switch self {
            case .plain: []
            case .polls: ["--busy-poll"]
            case .handsOff: ["--hand-off"]
            }
        }

        /// What the report adds to the baseline's name.
        var nameSuffix: String {
            switch self {
            case .plain: ""
            case .polls: ", polling while it waits"
            case .handsOff: ", each side handing every message to a second thread"
            }
        }
    }

    /// The request and reply payload sizes of Discover→Resolve (the 44 ms demonstration and B6).
    static func payloadSizes() throws -> (request: Int, reply: Int) {
        let shape = try MessageShape(.discover)
        return (shape.request, shape.reply)
    }

    /// The messages of one round trip of a pattern, which its C baseline sends too: the payload
    /// sizes, and how many request messages go out (an Update of the benchmark's `Light`, a custom
    /// object type, is published twice: on `UPD:CoatyObject` and on `UPD::com.example.Light`).
    struct MessageShape {
        var request: Int
        var reply: Int
        var requestMessages = 1

        init(_ pattern: Pattern) throws {
            let light = Fixtures.light()
            switch pattern {
            case .discover:
                (request, reply) = (try Discover(objectID: light.objectID).payload().count, try Resolve(object: light).payload().count)
            case .query:
                (request, reply) = (
                    try Query(objectTypes: [Light.objectType]).payload().count, try Retrieve(objects: [light]).payload().count
                )
            case .update:
                (request, reply) = (try Update(object: light).payload().count, try Complete(object: light).payload().count)
                requestMessages = 2
            case .call:
                (request, reply) = (
                    try Call(operation: operation, parameters: .positional([1, 2])).payload().count,
                    try Return(result: 3).payload().count
                )
            }
        }

        /// The baseline's arguments for this shape at `qos`. A second request message right behind
        /// the first meets the requester's Nagle algorithm (it waits for the ACK of the first, which
        /// the broker delays by up to 40 ms): the C requester then sets `TCP_NODELAY`, as the agent
        /// does. At QoS 1 the PUBACKs meet Nagle and the delayed ACK (~88 ms a round with neither
        /// option, ~44 ms with `TCP_NODELAY` only) unless the C clients acknowledge at once and send
        /// without delay, as the agent does: the baseline is that best case.
        func arguments(qos: MQTTQoS) -> [String] {
            let options = socketOptions(qos: qos)
            return ["--request-size", "\(request)", "--reply-size", "\(reply)", "--qos", "\(qos.rawValue)"]
                + (requestMessages > 1 ? ["--extra", "\(requestMessages - 1)"] : [])
                + (options.noDelay ? ["--nodelay"] : []) + (options.quickAck ? ["--quickack"] : [])
        }

        /// How the report names the baseline at `qos`.
        func label(qos: MQTTQoS) -> String {
            let options = socketOptions(qos: qos)
            return "C request→reply, one reply subscription, \(request) B → \(reply) B"
                + (requestMessages > 1 ? ", the request sent \(requestMessages) times as Coaty does" : "")
                + (options.quickAck ? ", TCP_NODELAY and TCP_QUICKACK" : options.noDelay ? ", TCP_NODELAY" : "")
        }

        private func socketOptions(qos: MQTTQoS) -> (noDelay: Bool, quickAck: Bool) {
            (qos == .atLeastOnce || requestMessages > 1, qos == .atLeastOnce)
        }
    }

    static func run(_ settings: Settings, report: Report) async throws {
        let brokers = [("default broker", settings.defaultBroker), ("set_tcp_nodelay broker", settings.nodelayBroker)]
        for (brokerName, broker) in brokers {
            try await compare(
                section: "B2 round trips, \(brokerName)", broker: broker, settings: settings, report: report,
                variants: [
                    Variant(publication: .pipelined), Variant(publication: .afterSubscriptionAcknowledged),
                    Variant(publication: .pipelined, responseSubscription: .namespaceWide),
                    Variant(publication: .pipelined, baseline: .handsOff),
                ],
                patterns: Pattern.allCases, rounds: settings.rounds)
        }
        try await compare(
            section: "B2 round trips, default broker, both sides on the agent's executor", broker: settings.defaultBroker,
            settings: settings, report: report,
            variants: [
                Variant(publication: .pipelined, onAgentExecutor: true),
                Variant(publication: .pipelined, responseSubscription: .namespaceWide, onAgentExecutor: true),
            ],
            patterns: Pattern.allCases, rounds: settings.rounds, responder: .executor)
        try await compare(
            section: "B2 round trips, default broker, responder's handlers inline (serve…)", broker: settings.defaultBroker,
            settings: settings, report: report,
            variants: [
                Variant(publication: .pipelined),
                Variant(publication: .pipelined, responseSubscription: .namespaceWide),
                Variant(publication: .pipelined, responseSubscription: .namespaceWide, onAgentExecutor: true),
                // Without polling for responses, as before it was the default; and against C that polls too.
                Variant(publication: .pipelined, responseSubscription: .namespaceWide, onAgentExecutor: true, busyPoll: false),
                Variant(publication: .pipelined, responseSubscription: .namespaceWide, onAgentExecutor: true, baseline: .polls),
            ],
            patterns: Pattern.allCases, rounds: settings.rounds, responder: .inline)
        // The configurations that meet issue 8's targets, on the broker that sends without delay too.
        try await compare(
            section: "B2 round trips, set_tcp_nodelay broker, responder's handlers inline (serve…)",
            broker: settings.nodelayBroker, settings: settings, report: report,
            variants: [
                Variant(publication: .pipelined, responseSubscription: .namespaceWide),
                Variant(publication: .pipelined, responseSubscription: .namespaceWide, onAgentExecutor: true),
            ],
            patterns: Pattern.allCases, rounds: settings.rounds, responder: .inline)
        for (brokerName, broker) in brokers {
            try await compare(
                section: "B2 round trips, \(brokerName), QoS 1", broker: broker, settings: settings,
                report: report, variants: [Variant(qos: .atLeastOnce, publication: settings.chosenPublication)],
                patterns: Pattern.allCases, rounds: settings.rounds, qos: .atLeastOnce)
        }
    }

    /// Measures `patterns` × `variants`, `settings.repeats` times, each in alternation with the C
    /// baseline that sends the same messages (see ``alternate(_:agent:rounds:settings:baselineArguments:)``).
    static func compare(
        section: String, broker: BrokerEndpoint, settings: Settings, report: Report, variants: [Variant],
        patterns: [Pattern], rounds: Int, qos: MQTTQoS = .atMostOnce, responder handlers: Handlers = .pool
    ) async throws {
        let shapes = try patterns.map { try MessageShape($0) }
        typealias Quantiles = (p50: Double, p99: Double)
        // Per pattern and variant, one pair of ours and C's quantiles per repetition.
        var runs: [String: [(ours: Quantiles, c: Quantiles)]] = [:]
        func key(_ pattern: Pattern, _ variant: Variant) -> String { "\(pattern.rawValue)|\(variant.label)" }
        let responder = try ChildProcess.peer(
            "respond",
            ["--broker", broker.url, "--qos", "\(qos.rawValue)", "--low-latency", "true", "--handlers", handlers.rawValue])
        _ = try await responder.expect("ready")
        for _ in 0..<settings.repeats {
            for variant in variants {
                let requester = try await RunningAgent.start("B2 requester", broker: broker.url, qos: variant.qos) {
                    $0.requestPublication = variant.publication
                    $0.broker.usesLowLatencySocket = variant.usesLowLatencySocket
                    $0.responseSubscription = variant.responseSubscription
                    if !variant.busyPoll { $0.responseBusyPoll = .zero }
                }
                for (pattern, shape) in zip(patterns, shapes) {
                    let agent = requester.agent
                    // A nil preference leaves the task where it is.
                    let (c, samples) = try await withTaskExecutorPreference(variant.onAgentExecutor ? agent.executor : nil) {
                        try await alternate(pattern, agent: agent, rounds: rounds, settings: settings) {
                            ["roundtrip", "--port", broker.port, "--rounds", "\(rounds)", "--warmup", "\(rounds / 10)",
                             "--blocks", "\($0)"] + shape.arguments(qos: qos) + variant.baseline.arguments
                        }
                    }
                    runs[key(pattern, variant), default: []].append(
                        ((samples.median, samples.quantile(0.99)), (c.median, c.quantile(0.99))))
                }
                await requester.stop()
            }
        }
        responder.send("done")
        await responder.wait()
        for (pattern, shape) in zip(patterns, shapes) {
            for variant in variants {
                let pairs = runs[key(pattern, variant)] ?? []
                for (quantile, quantileKey) in [("p50", \Quantiles.p50), ("p99", \.p99)] {
                    let target: Target =
                        quantile == "p50" ? .ratioAtMost(1.3) : .ratioAtMost(1.5)
                    report.add(
                        Figure(
                            section: section, name: "\(pattern.rawValue) \(quantile), \(variant.label)", unit: "µs",
                            ours: pairs.map { $0.ours[keyPath: quantileKey] }, baseline: pairs.map { $0.c[keyPath: quantileKey] },
                            baselineName: shape.label(qos: qos) + variant.baseline.nameSuffix,
                            target: broker.isDefault && variant.baseline == .plain ? target : nil,
                            note: "\(rounds) rounds × \(settings.repeats)",
                            pairedRatios: pairs.map { $0.ours[keyPath: quantileKey] / $0.c[keyPath: quantileKey] }))
                }
            }
        }
    }

    /// The 44 ms effect (issue 8): Discover→Resolve with and without `TCP_QUICKACK`/`TCP_NODELAY`
    /// on both agents, beside C with a fresh reply subscription per request, on both brokers.
    static func stallDemonstration(_ settings: Settings, report: Report) async throws {
        let sizes = try payloadSizes()
        let rounds = settings.stallRounds
        for (brokerName, broker) in [("default broker", settings.defaultBroker), ("set_tcp_nodelay broker", settings.nodelayBroker)] {
            let section = "The 44 ms effect: Discover→Resolve p50 on a \(brokerName)"
            func c(_ extra: [String]) async throws -> [String: Double] {
                try await runBaseline(
                    settings.baselinePath,
                    ["roundtrip", "--port", broker.port, "--rounds", "\(rounds)", "--warmup", "5",
                     "--request-size", "\(sizes.request)", "--reply-size", "\(sizes.reply)"] + extra)
            }
            let plain = try await c([])
            let cases: [(String, [String])] = [
                ("C, fresh reply subscription per request, publish after SUBACK", ["--subscribe-per-request"]),
                ("C, fresh reply subscription per request, publish behind SUBSCRIBE (coaty-js's pattern)",
                 ["--subscribe-per-request", "--pipelined"]),
            ]
            for (name, extra) in cases {
                let values = try await c(extra)
                report.add(
                    Figure(
                        section: section, name: name, unit: "µs", ours: [values["p50_us"] ?? .nan],
                        baseline: [plain["p50_us"] ?? .nan], baselineName: "C request→reply, one reply subscription",
                        note: "p99 \(Report.format(values["p99_us"] ?? .nan)) µs, \(rounds) rounds"))
            }
            for lowLatency in [false, true] {
                let responder = try ChildProcess.peer(
                    "respond", ["--broker", broker.url, "--qos", "0", "--low-latency", "\(lowLatency)"])
                _ = try await responder.expect("ready")
                for publication in [Agent.RequestPublication.pipelined, .afterSubscriptionAcknowledged] {
                    let variant = Variant(publication: publication, usesLowLatencySocket: lowLatency)
                    let requester = try await RunningAgent.start("B2 requester", broker: broker.url) {
                        $0.requestPublication = publication
                        $0.broker.usesLowLatencySocket = lowLatency
                    }
                    let samples = Samples(try await measure(.discover, agent: requester.agent, rounds: rounds, warmup: 5))
                    await requester.stop()
                    report.add(
                        Figure(
                            section: section, name: "swift-coaty, \(variant.label)", unit: "µs", ours: [samples.median],
                            baseline: [plain["p50_us"] ?? .nan], baselineName: "C request→reply, one reply subscription",
                            note: "p99 \(Report.format(samples.quantile(0.99))) µs, \(rounds) rounds"))
                }
                responder.send("done")
                await responder.wait()
            }
        }
    }

    /// `rounds` round trips of `pattern` and as many of the C baseline started with
    /// `baselineArguments(blocks)`, alternating in blocks of about 100: the load of a shared machine
    /// drifts within a second, and a ratio is only as good as the pairing of its two figures.
    /// Returns the baseline's samples and ours, in µs.
    static func alternate(
        _ pattern: Pattern, agent: Agent, rounds: Int, settings: Settings, baselineArguments: (Int) -> [String]
    ) async throws -> (baseline: Samples, ours: Samples) {
        let blocks = max(1, rounds / 100)
        let c = try ChildProcess(executable: settings.baselinePath, arguments: baselineArguments(blocks))
        _ = try await c.expect("warm")
        _ = try await measure(pattern, agent: agent, rounds: 0, warmup: rounds / 10)
        var theirs: [Double] = []
        var ours: [Double] = []
        for _ in 0..<blocks {
            c.send("go")
            let block = keyValueLists(try await c.expect("block"))["samples_us"] ?? []
            theirs += block
            ours += try await measure(pattern, agent: agent, rounds: block.count, warmup: 0)
        }
        _ = try await c.expect("rounds=")
        let status = await c.wait()
        guard status == 0, !theirs.isEmpty else {
            throw ChildProcess.Failure(description: "mqtt-baseline \(baselineArguments(blocks).joined(separator: " ")) failed (\(status))")
        }
        return (Samples(theirs), Samples(ours))
    }

    /// Round-trip times of `rounds` requests of `pattern`, in µs, after `warmup` unmeasured ones.
    static func measure(_ pattern: Pattern, agent: Agent, rounds: Int, warmup: Int) async throws -> [Double] {
        let light = Fixtures.light()
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(rounds)
        for round in 0..<(warmup + rounds) {
            let start = clock.now
            switch pattern {
            case .discover:
                _ = try await agent.discover(Discover(objectID: light.objectID), timeout: .seconds(10)).first()
            case .query:
                _ = try await agent.query(Query(objectTypes: [Light.objectType]), timeout: .seconds(10)).first()
            case .update:
                _ = try await agent.update(Update(object: light), timeout: .seconds(10)).first()
            case .call:
                _ = try await agent.call(
                    Call(operation: operation, parameters: .positional([1, 2])), timeout: .seconds(10)
                ).first()
            }
            if round >= warmup { samples.append(start.duration(to: clock.now).microseconds) }
        }
        return samples
    }

    /// The responder child: answers every pattern until told "done".
    /// In `namespace`; with `metrics`, its agent reports to a Prometheus registry.
    static func responderPeer(
        broker: String, qos: MQTTQoS, usesLowLatencySocket: Bool, handlers: Handlers, namespace: String = "-",
        metrics: Bool = false
    ) async throws {
        let running = try await RunningAgent.start("B2 responder", broker: broker, qos: qos) {
            $0.broker.usesLowLatencySocket = usesLowLatencySocket
            $0.namespace = namespace
            if metrics { $0.metricsFactory = MetricsOverhead.makeFactory() }
        }
        let agent = running.agent
        let light = Fixtures.light()
        if handlers == .inline {
            let responders = [
                try await agent.startServingDiscover { request in
                    if request.event.objectID == light.objectID { try request.respond(Resolve(object: light)) }
                },
                try await agent.startServingQuery { try $0.respond(Retrieve(objects: [light])) },
                try await agent.startServingUpdate(objectType: Light.objectType) { try $0.respond(Complete(object: $0.event.object)) },
                try await agent.startServingCall(operation) { try $0.respond(Return(result: 3)) },
            ]
            tell("ready")
            _ = await readStdinLine()
            responders.forEach { $0.cancel() }
            await running.stop()
            return
        }
        let discovers = try await agent.observeDiscover()
        let queries = try await agent.observeQuery()
        let updates = try await agent.observeUpdate(objectType: Light.objectType)
        let calls = try await agent.observeCall(operation)
        let executor: (any TaskExecutor)? = handlers == .executor ? agent.executor : nil
        let tasks = [
            Task(executorPreference: executor) {
                for try await request in discovers where request.event.objectID == light.objectID {
                    try? request.respond(Resolve(object: light))
                }
            },
            Task(executorPreference: executor) { for try await request in queries { try? request.respond(Retrieve(objects: [light])) } },
            Task(executorPreference: executor) { for try await request in updates { try? request.respond(Complete(object: request.event.object)) } },
            Task(executorPreference: executor) { for try await request in calls { try? request.respond(Return(result: 3)) } },
        ]
        tell("ready")
        _ = await readStdinLine()
        tasks.forEach { $0.cancel() }
        await running.stop()
    }
}

extension RoundTrip {
    /// `CoatyBenchmarks diag PORT ROUNDS`: round trips against a broker already running on PORT, with
    /// the CPU time and context switches per round of both processes (for strace/perf). Environment:
    /// `DIAG_PATTERN` (`discover`, the default, `query`, `update`, `call`), `DIAG_EXECUTOR=1` (both
    /// sides on the agent's executor), `DIAG_INLINE=1` (the responder's handlers inline; with
    /// `DIAG_EXECUTOR=1` the requester stays on the executor), `DIAG_NAMESPACE_WIDE=1`, `DIAG_QOS=1`,
    /// `DIAG_DELAY` (seconds to wait before measuring, to attach a tool), `DIAG_RESPONDER_PID` (use
    /// the responder already running with this pid, started with `CoatyBenchmarks peer respond
    /// --broker URL --handlers executor`, instead of starting one: valgrind cannot start child processes).
    static func diagnose(port: String, rounds: Int, pipelined: Bool) async throws {
        let broker = "mqtt://127.0.0.1:\(port)"
        let environment = ProcessInfo.processInfo.environment
        let onExecutor = environment["DIAG_EXECUTOR"] == "1"
        let handlers: Handlers = environment["DIAG_INLINE"] == "1" ? .inline : onExecutor ? .executor : .pool
        let namespaceWide = environment["DIAG_NAMESPACE_WIDE"] == "1"
        let qos = environment["DIAG_QOS"] == "1" ? MQTTQoS.atLeastOnce : .atMostOnce
        let external = environment["DIAG_RESPONDER_PID"].flatMap { Int32($0) }
        let responder =
            external == nil
            ? try ChildProcess.peer(
                "respond", ["--broker", broker, "--qos", "\(qos.rawValue)", "--handlers", handlers.rawValue]) : nil
        _ = try await responder?.expect("ready")
        let requester = try await RunningAgent.start("diag requester", broker: broker, qos: qos) {
            $0.requestPublication = pipelined ? .pipelined : .afterSubscriptionAcknowledged
            $0.responseSubscription = namespaceWide ? .namespaceWide : .perRequest
            if environment["DIAG_BUSY_POLL"] == "0" { $0.responseBusyPoll = .zero }
        }
        tell("pid \(getpid()) ready; measuring in 3 s")
        try await Task.sleep(for: .seconds(Double(environment["DIAG_DELAY"] ?? "0") ?? 0))
        let pids = [getpid(), external ?? responder?.pid ?? 0]
        let pattern = Pattern.allCases.first { "\($0)" == environment["DIAG_PATTERN"] } ?? .discover
        let agent = requester.agent
        let before = pids.map(ProcessCounters.init(pid:))
        let samples = try await withTaskExecutorPreference(onExecutor ? agent.executor : nil) {
            try await measure(pattern, agent: agent, rounds: rounds, warmup: 0)
        }
        let after = pids.map(ProcessCounters.init(pid:))
        let sorted = Samples(samples)
        let costs = zip(before, after).map { before, after in
            String(
                format: "cpu %.0f µs (user %.0f), %.1f switches",
                (after.cpuSeconds - before.cpuSeconds) * 1e6 / Double(rounds),
                (after.userSeconds - before.userSeconds) * 1e6 / Double(rounds),
                Double(after.switches - before.switches) / Double(rounds))
        }
        print("per round: requester \(costs[0]); responder \(costs[1])")
        print("p50 \(sorted.median) p99 \(sorted.quantile(0.99))")
        await requester.stop()
        responder?.send("done")
        await responder?.wait()
    }
}

/// CPU time and context switches of a process so far, from /proc.
struct ProcessCounters {
    /// User and system time of all the process's threads.
    var cpuSeconds: Double
    /// The user-space part of ``cpuSeconds``.
    var userSeconds: Double
    var switches: Int

    init(pid: Int32) {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        // After the command: state is field 3; utime and stime are fields 14 and 15.
        let (user, system) = fields.count > 12 ? (Double(fields[11]) ?? 0, Double(fields[12]) ?? 0) : (0, 0)
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (user + system) / ticksPerSecond
        userSeconds = user / ticksPerSecond
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        switches = threads.map { thread in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
                .compactMap { $0.split(separator: "\t").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
                .reduce(0, +)
        }.reduce(0, +)
    }
}
