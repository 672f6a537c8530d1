import Agent
import CoreTypes
import Testing

@testable import agent_runner

/// The dashboard's model without a broker, a server or a clock: messages go in with the time they
/// arrived, snapshots come out.
@Suite struct DashboardModelTests {
    static let lamp = "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let agentA = "aaaaaaaa-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let agentB = "bbbbbbbb-1c3e-4f5a-b7d9-e1f3a5c7b9d2"

    static func message(
        _ type: EventType, filter: String? = nil, source: String = agentA, correlation: String? = nil,
        _ payload: String
    ) -> CoatyMessage {
        CoatyMessage(
            topic: CoatyTopic(
                namespace: "-", eventType: type, eventTypeFilter: filter, sourceID: source, correlationID: correlation),
            payload: Array(payload.utf8))
    }

    static func identity(_ id: String, _ name: String) -> CoatyMessage {
        message(
            .advertise, filter: "Identity", source: id,
            #"{"object":{"objectId":"\#(id)","objectType":"coaty.Identity","coreType":"Identity","name":"\#(name)"}}"#)
    }

    static func light(_ brightness: Double, id: String = lamp, parent: String? = nil, filter: String = "CoatyObject")
        -> CoatyMessage
    {
        let parentMember = parent.map { #","parentObjectId":"\#($0)""# } ?? ""
        return message(
            .advertise, filter: filter,
            #"{"object":{"objectId":"\#(id)","objectType":"com.example.Light","coreType":"CoatyObject","name":"Desk lamp","brightness":\#(brightness)\#(parentMember)}}"#
        )
    }

    static func snapshot(_ model: DashboardModel, at time: Double = 1000, filter: String = "") -> JSONValue {
        .object(
            model.snapshot(
                at: time, sequence: 1, drops: .init(), ownID: agentB, logFilter: filter))
    }

    @Test func identitiesAreAgentsOnlineSinceTheirFirstAdvertiseUntilTheirDeadvertise() {
        var model = DashboardModel()
        model.record(Self.identity(Self.agentA, "Lamp controller"), at: 100)
        model.record(Self.identity(Self.agentB, "Dashboard"), at: 200)
        model.record(Self.identity(Self.agentA, "Lamp controller"), at: 300)
        var agents = Self.snapshot(model)["agents"]?.arrayValue ?? []
        #expect(agents.map { $0["name"] } == ["Dashboard", "Lamp controller"])
        #expect(agents.last?["since"] == 100_000, "joined at its first Advertise (ms)")
        #expect(agents.last?["lastSeen"] == 300_000)
        #expect(agents.first?["self"] == true)
        model.record(Self.message(.deadvertise, source: Self.agentA, #"{"objectIds":["\#(Self.agentA)"]}"#), at: 400)
        agents = Self.snapshot(model)["agents"]?.arrayValue ?? []
        #expect(agents.map { $0["name"] } == ["Dashboard"])
    }

    @Test func objectsAreShownByTypeWithTheirLatestStateAndLeaveWithTheirParent() {
        var model = DashboardModel()
        model.record(Self.identity(Self.agentA, "Lamp controller"), at: 1)
        model.record(Self.light(0.8, parent: Self.agentA), at: 2)
        model.record(Self.light(0.3, parent: Self.agentA), at: 3)
        let groups = Self.snapshot(model)["objectTypes"]?.arrayValue ?? []
        #expect(groups.map { $0["objectType"] } == ["com.example.Light"])
        let lamp = groups.first?["objects"]?.arrayValue?.first
        #expect(lamp?["name"] == "Desk lamp")
        #expect(lamp?["state"]?.stringValue == #"{"brightness":0.3,"parentObjectId":"\#(Self.agentA)"}"#, "the latest")
        #expect(lamp?["source"] == "Lamp controller")
        #expect(model.agents.trackedObjects.count == 1, "an identity is an agent, not an object")
        model.record(Self.message(.deadvertise, #"{"objectIds":["\#(Self.agentA)"]}"#), at: 4)
        #expect(Self.snapshot(model)["objectTypes"] == [], "the lamp belonged to the agent that left")
    }

    @Test func anAdvertiseSentOnTwoTopicsCountsOnce() {
        var model = DashboardModel()
        model.record(Self.light(0.8), at: 10.1)
        model.record(Self.light(0.8, filter: ":com.example.Light"), at: 10.2)
        let rates = Self.snapshot(model, at: 12)["rates"]
        #expect(rates?["types"]?[0]?["event"] == "Advertise")
        #expect(rates?["types"]?[0]?["total"] == 1)
        #expect(Self.snapshot(model)["log"]?["kept"] == 1)
        #expect(model.received == 2)
    }

    @Test func ratesArePerSecondOverTheWindowAndLeaveIt() {
        var model = DashboardModel(limits: .init(rateWindow: 60))
        for tenth in 0..<30 {
            model.record(Self.message(.channel, filter: "c", #"{"objects":[]}"#), at: 100 + Double(tenth) / 10)
        }
        model.record(Self.message(.channel, filter: "c", #"{"objects":[]}"#), at: 103.5)
        #expect(model.rates.series(.channel, before: 104).suffix(4) == [10, 10, 10, 1])
        let now = Self.snapshot(model, at: 104)["rates"]?["types"]?[0]
        #expect(now?["total"] == 31)
        #expect(now?["perSecond"] == 3.1, "the mean of the last 10 complete seconds")
        #expect(now?["series"]?.arrayValue?.count == 12, "60 s in bars of 5 s")
        #expect(Self.snapshot(model, at: 170)["rates"]?["types"] == [], "a minute later the window is empty")
        model.record(Self.message(.channel, filter: "c", #"{"objects":[]}"#), at: 220.5)  // second 100's bucket
        #expect(model.rates.series(.channel, before: 221).reduce(0, +) == 1, "the reused bucket was reset")
    }

    @Test func latencyIsFromTheRequestToItsFirstResponse() {
        var model = DashboardModel(limits: .init(requestTimeout: 10))
        for (index, delay) in [0.002, 0.004, 0.1].enumerated() {
            let id = "c\(index)"
            let start = 50 + Double(index)
            model.record(Self.message(.discover, correlation: id, #"{"coreTypes":["Identity"]}"#), at: start)
            model.record(Self.message(.resolve, correlation: id, #"{"object":null}"#), at: start + delay)
            model.record(Self.message(.resolve, correlation: id, #"{"object":null}"#), at: start + 1)
        }
        model.record(Self.message(.call, filter: "op", correlation: "lost", #"{}"#), at: 55)
        model.expireRequests(at: 70)
        let rows = Self.snapshot(model, at: 70)["latency"]?.arrayValue ?? []
        let discover = rows.first { $0["pattern"] == "Discover → Resolve" }
        #expect(discover?["requests"] == 3 && discover?["answered"] == 3)
        #expect(abs((discover?["p50"]?.doubleValue ?? 0) - 4) < 1e-6, "ms")
        #expect(abs((discover?["p99"]?.doubleValue ?? 0) - 100) < 1e-6)
        let call = rows.first { $0["pattern"] == "Call → Return" }
        #expect(call?["unanswered"] == 1 && call?["p50"] == .null)
    }

    @Test func pendingRequestsAreBoundedAndTheRestCounted() {
        var latencies = RequestLatencies(pendingLimit: 2)
        for id in ["a", "b", "c"] { latencies.record(.query, correlationID: id, time: 1) }
        #expect(latencies.waiting == 2 && latencies.untracked == 1)
    }

    @Test func theLogShowsTheNewestFirstAndAFilterFindsRareEventsUnderAFlood() {
        var model = DashboardModel(limits: .init(logEntriesPerType: 5, logEntriesShown: 3))
        model.record(Self.light(0.8), at: 1)
        for second in 0..<100 {
            model.record(Self.message(.channel, filter: "positions", #"{"objects":[]}"#), at: 2 + Double(second))
        }
        let log = Self.snapshot(model)["log"]
        #expect(log?["entries"]?.arrayValue?.count == 3)
        #expect(log?["entries"]?[0]?["event"] == "Channel")
        #expect(log?["kept"] == 6, "5 Channel and 1 Advertise")
        let lamp = Self.snapshot(model, filter: "desk LAMP")["log"]?["entries"]?.arrayValue ?? []
        #expect(lamp.map { $0["event"] } == ["Advertise"])
        #expect(lamp.first?["type"] == "com.example.Light")
    }

    @Test func whatCannotBeReadOrKeptIsCounted() {
        var model = DashboardModel(limits: .init(objects: 2))
        model.record(Self.message(.advertise, filter: "CoatyObject", "not json"), at: 1)
        for index in 0..<3 {
            model.record(Self.light(0.5, id: "0000000\(index)-1c3e-4f5a-b7d9-e1f3a5c7b9d2"), at: 2 + Double(index))
        }
        let snapshot = Self.snapshot(model)
        #expect(snapshot["drops"]?["invalidPayloads"] == 1)
        #expect(snapshot["drops"]?["evictedObjects"] == 1)
        let ids = snapshot["objectTypes"]?[0]?["objects"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
        #expect(Set(ids ?? []) == ["00000001-1c3e-4f5a-b7d9-e1f3a5c7b9d2", "00000002-1c3e-4f5a-b7d9-e1f3a5c7b9d2"])
    }

    @Test func aRingKeepsTheLastElementsOldestFirst() {
        var ring = Ring<Int>(capacity: 3)
        for value in 1...5 { ring.append(value) }
        #expect(ring.elements == [3, 4, 5])
    }
}
