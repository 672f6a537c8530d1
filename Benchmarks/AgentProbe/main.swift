import Agent
import BenchmarkFixtures
import CoreTypes
import Glibc
import Logging
import Synchronization

// agent-probe: agents in a process of their own, without Foundation (the Agent module does not use
// it), so that its memory figures are what an agent costs. CoatyBenchmarks runs it (B5, B6).
//
//   agent-probe idle --broker URL                      prints rss_kb=… shared_swift_runtime=0|1
//   agent-probe soak --broker URL --count N [--every K] prints at=<messages> rss_kb=… per K messages
//   agent-probe scale --broker URL --agents N           prints agents=… join_s=… made_s=… fanin_s=… rss_per_agent_kb=…

let quietLogger = Logger(label: "agent-probe") { _ in SwiftLogNoOpLogHandler() }

func option(_ name: String, default value: String? = nil) -> String {
    let arguments = CommandLine.arguments
    if let index = arguments.firstIndex(of: name), index + 1 < arguments.count { return arguments[index + 1] }
    guard let value else {
        fail("missing \(name)")
    }
    return value
}

/// Writes `message` to stderr and exits with status 2.
func fail(_ message: String) -> Never {
    let line = Array("agent-probe: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

func residentKilobytes() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmRSS:") {
            return Int(text.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? -1
        }
    }
    return -1
}

func tell(_ line: String) {
    print(line)
    fflush(nil)
}

func configuration(_ name: String, broker: String) -> Agent.Configuration {
    var configuration = Agent.Configuration(identity: Identity(name: name))
    configuration.broker.url = broker
    return configuration
}

func waitUntilOnline(_ agent: Agent) async throws {
    for await state in agent.connectionStates() where state == .online { return }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// B5: one agent, connected, idle.
func idle(broker: String) async throws {
    let agent = try Agent(configuration: configuration("idle", broker: broker), registry: LightFixture.registry(), logger: quietLogger)
    let task = Task { try await agent.run() }
    try await waitUntilOnline(agent)
    try await Task.sleep(for: .seconds(1))
    tell("rss_kb=\(residentKilobytes()) shared_swift_runtime=\(SwiftRuntime.isShared.map { $0 ? 1 : 0 } ?? -1)")
    task.cancel()
    _ = try? await task.value
}

/// B5: two agents; one advertises `count` lights to the other, which observes and decodes them,
/// never more than `window` ahead; the resident size is printed every `every` messages.
func soak(broker: String, count: Int, every: Int) async throws {
    let window = 2_000
    let registry = LightFixture.registry()
    var subscriberConfiguration = configuration("soak subscriber", broker: broker)
    subscriberConfiguration.observerBufferSize = 2 * window
    let subscriber = try Agent(configuration: subscriberConfiguration, registry: registry, logger: quietLogger)
    let publisher = try Agent(configuration: configuration("soak publisher", broker: broker), registry: registry, logger: quietLogger)
    let tasks = [Task { try await subscriber.run() }, Task { try await publisher.run() }]
    try await waitUntilOnline(subscriber)
    try await waitUntilOnline(publisher)
    let events = try await subscriber.observeAdvertise(objectType: Light.objectType)
    let received = Atomic<Int>(0)
    let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let consumer = Task {
        var lights = 0
        for try await event in events {
            if event.event.object is Light { lights += 1 }
            received.store(lights, ordering: .releasing)
            if lights % 250 == 0 { signal.yield() }
            if lights == count { break }
        }
        signal.finish()
        return lights
    }
    let light = LightFixture.light()
    var waiting = signals.makeAsyncIterator()
    let clock = ContinuousClock()
    let start = clock.now
    for sent in 0..<count {
        while sent - received.load(ordering: .acquiring) >= window {
            guard await waiting.next() != nil else { break }
        }
        try publisher.advertise(light)
        if (sent + 1) % every == 0 {
            while received.load(ordering: .acquiring) < sent + 1 - window {
                guard await waiting.next() != nil else { break }
            }
            tell("at=\(sent + 1) rss_kb=\(residentKilobytes())")
        }
    }
    let lights = try await consumer.value
    let elapsed = start.duration(to: clock.now)
    let statistics = subscriber.statistics
    tell(
        "done received=\(lights) rate=\(Double(lights) / seconds(elapsed)) rss_kb=\(residentKilobytes()) "
            + "dropped=\(statistics.droppedObserverEvents)")
    tasks.forEach { $0.cancel() }
    for task in tasks { _ = try? await task.value }
}

/// B6: `count` agents join one broker from this process; then one Discover answered by all.
func scale(broker: String, count: Int) async throws {
    // Each agent holds its socket (the agent closes libmosquitto's socket pair).
    let needed = count + 256
    var limit = rlimit()
    if getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 {
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }
    guard limit.rlim_cur >= needed else {
        fail("\(count) agents need \(needed) file descriptors, but RLIMIT_NOFILE allows \(limit.rlim_cur); raise it (ulimit -Hn \(needed), as root)")
    }
    let registry = LightFixture.registry()
    let before = residentKilobytes()
    let clock = ContinuousClock()
    let start = clock.now
    // Each agent starts as soon as it is made, as the C baseline connects each client right after
    // creating it: the first ones join while the rest are being made.
    var agents: [Agent] = []
    var tasks: [Task<Void, any Error>] = []
    for index in 0..<count {
        let agent = try Agent(configuration: configuration("agent \(index)", broker: broker), registry: registry, logger: quietLogger)
        agents.append(agent)
        tasks.append(Task { try await agent.run() })
    }
    let made = clock.now
    for agent in agents { try await waitUntilOnline(agent) }
    let joined = clock.now
    let after = residentKilobytes()

    let asked = clock.now
    let responses = try await agents[0].discover(Discover(coreTypes: [.identity]), timeout: .seconds(60))
    var identities = Set<String>()
    var last = asked
    for try await resolve in responses {
        if let id = resolve.event.object?.objectID { identities.insert(id) }
        last = clock.now
        if identities.count == count { break }
    }
    tell(
        "agents=\(count) join_s=\(seconds(start.duration(to: joined))) made_s=\(seconds(start.duration(to: made))) fanin_s=\(seconds(asked.duration(to: last))) "
            + "resolves=\(identities.count) rss_per_agent_kb=\(Double(after - before) / Double(count))")
    tasks.forEach { $0.cancel() }
    for task in tasks { _ = try? await task.value }
}

let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

let broker = option("--broker")
switch CommandLine.arguments.dropFirst().first {
case "idle":
    try await idle(broker: broker)
case "soak":
    try await soak(broker: broker, count: Int(option("--count")) ?? 1_000_000, every: Int(option("--every", default: "100000")) ?? 100_000)
case "scale":
    try await scale(broker: broker, count: Int(option("--agents")) ?? 1_000)
default:
    fail("usage: agent-probe idle|soak|scale --broker URL [--count N] [--every K] [--agents N]")
}
