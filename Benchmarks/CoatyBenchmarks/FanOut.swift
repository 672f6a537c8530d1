import Agent
import BenchmarkFixtures
import CoreTypes
import Foundation

/// B4: the agent's inbound path (`Agent.route`, what its task does for every message) with 10,
/// 1,000 and 10,000 observers of different object types; and issue 3's topic parse + route lookup.
///
/// No broker: the messages are handed to the agent as the transport would hand them over, so the
/// figure is the agent's own cost per message.
enum FanOut {
    static let source = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    static let otherSource = "6d4f2b3c-8e5a-4f7b-8c9d-1e2f3a4b5c6d"

    static func run(_ settings: Settings, report: Report) async throws {
        let counts = [10, 1_000, 10_000]
        let messages = settings.fanOutMessages
        var costs: [Int: [Double]] = [:]
        var lookups: [Double] = []
        var naive: [Double] = []
        for _ in 0..<settings.repeats {
            for count in counts {
                costs[count, default: []].append(try await costPerMessage(observers: count, messages: messages))
            }
            lookups.append(try await costPerMessage(observers: 10_000, messages: messages * 5, unobserved: true))
            naive.append(naiveParseAndLookup(routes: 10_000, messages: messages * 5))
        }
        let reference = costs[10] ?? []
        for count in counts {
            let mine = costs[count] ?? []
            report.add(
                Figure(
                    section: "B4 fan-out", name: "inbound Advertise (parse, route, decode as Light, deliver), \(count) observers",
                    unit: "ns/message", ours: mine, baseline: reference, baselineName: "the same with 10 observers",
                    target: count == 10_000 ? .ratioAtMost(1.2) : nil, note: "\(messages) messages × \(settings.repeats)",
                    pairedRatios: zip(mine, reference).map { $0 / $1 }))
        }
        report.add(
            Figure(
                section: "Issue 3: topics and filters", name: "topic parse + route lookup per inbound message (10,000 routes)",
                unit: "ns/message", ours: lookups, baseline: naive,
                baselineName: "components(separatedBy:) + dictionary lookup", target: .valueBelow(1000),
                note: "Agent.route of a message nobody observes", pairedRatios: zip(lookups, naive).map { $0 / $1 }))
    }

    /// Nanoseconds per message that `Agent.route` spends on `messages` Advertises of Light while
    /// `observers` observers of distinct object types are registered (one of them Light's).
    static func costPerMessage(observers: Int, messages: Int, unobserved: Bool = false) async throws -> Double {
        let configuration = RunningAgent.configuration("B4", broker: "mqtt://127.0.0.1:9", qos: .atMostOnce) {
            $0.observerBufferSize = messages + 1_000
        }
        let agent = try Agent(configuration: configuration, registry: Fixtures.registry(), logger: Fixtures.quietLogger)
        // Not running: observing registers the routes at once (subscriptions would follow on CONNACK).
        let target = try await agent.observeAdvertise(objectType: Light.objectType)
        var others: [EventStream<Received<Advertise>>] = []
        for index in 1..<observers { others.append(try await agent.observeAdvertise(objectType: "com.example.Type\(index)")) }
        let objectType = unobserved ? "com.example.Unobserved" : Light.objectType
        // Two sources in turn: each message's topic differs from the one before, so it is parsed
        // (its levels come from the cache), as when several peers publish.
        let payload = try Advertise(object: Fixtures.light()).payload()
        let pair = [source, otherSource].map { sourceID in
            InboundMessage(topic: "coaty/3/-/ADV::\(objectType)/\(sourceID)", payload: payload, qos: .atMostOnce, retain: false)
        }
        for index in 0..<100 { agent.route(pair[index & 1]) }
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<messages { agent.route(pair[index & 1]) }
        let elapsed = start.duration(to: clock.now)
        precondition(agent.statistics.droppedObserverEvents == 0, "B4: events were dropped")
        var delivered = 0
        if !unobserved {
            for try await event in target {
                if event.event.object is Light { delivered += 1 }
                if delivered == messages + 100 { break }
            }
            precondition(delivered == messages + 100, "B4: \(delivered) of \(messages + 100) delivered")
        }
        withExtendedLifetime(others) {}
        return elapsed.seconds * 1e9 / Double(messages)
    }

    /// The straightforward way: split the topic with Foundation and look its event level up in a dictionary.
    static func naiveParseAndLookup(routes: Int, messages: Int) -> Double {
        var table: [String: Int] = [:]
        for index in 0..<routes { table["ADV::com.example.Type\(index)"] = index }
        let topic = "coaty/3/-/ADV::com.example.Unobserved/\(source)"
        var hits = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<messages {
            let levels = topic.components(separatedBy: "/")
            if levels.count >= 5, levels[0] == "coaty", table[levels[3]] != nil { hits += 1 }
        }
        let elapsed = start.duration(to: clock.now)
        precondition(hits == 0)
        return elapsed.seconds * 1e9 / Double(messages)
    }
}
