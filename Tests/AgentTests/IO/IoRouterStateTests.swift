import CoreTypes
import Testing

@testable import Agent

/// The router's decisions without a broker: which Associate events it publishes, in which order,
/// as coaty-js's `RuleBasedIoRouter` and `BasicIoRouter` do.
struct IoRouterStateTests {
    static let context = IoContext(objectID: "c7a1d2e3-f4b5-4c6d-9e7f-a8b9c0d1e2f3", name: "kitchen")
    static let scope = AgentScope(identityID: "e4d3c2b1-a0f9-4e8d-b7c6-a5b4c3d2e1f0")
    static let sourceID = "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let route = "coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"

    static func node(
        _ id: String, sources: [IoSource] = [], actors: [IoActor] = [], characteristics: JSONObject? = nil
    ) -> IoNode {
        IoNode(objectID: id, name: "kitchen", ioSources: sources, ioActors: actors, characteristics: characteristics)
    }

    static func source(_ id: String = sourceID, rate: Double? = nil, raw: Bool? = nil, external: String? = nil)
        -> IoSource
    {
        IoSource(
            objectID: id, name: "Thermometer", valueType: "number[Celsius]", updateRate: rate, useRawIoValues: raw,
            externalRoute: external)
    }

    static func actor(_ id: String, type: String = "number[Celsius]", rate: Double? = nil, raw: Bool? = nil)
        -> IoActor
    {
        IoActor(objectID: id, name: "Display \(id)", valueType: type, updateRate: rate, useRawIoValues: raw)
    }

    static func basic() -> IoRouterState {
        IoRouterState(context: context, scope: scope, rules: [.anyCompatiblePair])
    }

    /// "S-A" for an association, "S-A@rate", "S-A (route)" when the route is not the default, "S/A" to disassociate.
    static func describe(_ events: [Associate]) -> [String] {
        events.map { event in
            guard let route = event.associatingRoute else { return "\(event.ioSourceID)/\(event.ioActorID)" }
            var text = "\(event.ioSourceID)-\(event.ioActorID)"
            if let rate = event.updateRate { text += "@\(Int(rate))" }
            if route != scope.ioRoute(forIoSource: event.ioSourceID) { text += " (\(route))" }
            return text
        }
    }

    @Test func associatesACompatiblePairOnTheSourcesRouteOnceBothAreKnown() throws {
        var router = Self.basic()
        #expect(router.nodeSeen(Self.node("nodeS", sources: [Self.source()])).isEmpty)
        let events = router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")]))
        #expect(events.count == 1)
        #expect(events.first?.associatingRoute == Self.route)
        #expect(events.first?.ioContextName == "kitchen")
        #expect(events.first?.updateRate == nil)
        let payload = try #require(try events.first?.payload())
        #expect(String(decoding: payload, as: UTF8.self)
            == #"{"ioSourceId":"7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f","ioActorId":"A","associatingRoute":"coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"}"#)
    }

    @Test func leavesIncompatibleValueTypesAndRawFlagsAlone() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        let events = router.nodeSeen(
            Self.node("nodeA", actors: [Self.actor("text", type: "string"), Self.actor("raw", raw: true)]))
        #expect(events.isEmpty)
    }

    @Test func ignoresNodesOfOtherContexts() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        let other = IoNode(objectID: "nodeA", name: "garage", ioActors: [Self.actor("A")])
        #expect(router.nodeSeen(other).isEmpty)
    }

    @Test func disassociatesWhenANodeIsDeadvertisedOrComesBackEmpty() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        _ = router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")]))
        #expect(router.deadvertised(["identityS"]).isEmpty)
        #expect(Self.describe(router.deadvertised(["identityS", "nodeS"])) == ["\(Self.sourceID)/A"])
        #expect(router.associations.isEmpty)

        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        #expect(router.associations.count == 1)
        #expect(Self.describe(router.nodeSeen(Self.node("nodeA"))) == ["\(Self.sourceID)/A"])
    }

    @Test func givesEachSourceTheSlowestRateOfItsActorsAndReassociatesWhenItChanges() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        #expect(Self.describe(router.nodeSeen(Self.node("node1", actors: [Self.actor("A1", rate: 100)])))
            == ["\(Self.sourceID)-A1@100"])
        #expect(Self.describe(router.nodeSeen(Self.node("node2", actors: [Self.actor("A2", rate: 500)])))
            == ["\(Self.sourceID)-A1@500", "\(Self.sourceID)-A2@500"])
        // coaty-js re-associates the kept pair first, then disassociates the one that left.
        #expect(Self.describe(router.deadvertised(["node2"])) == ["\(Self.sourceID)-A1@100", "\(Self.sourceID)/A2"])
    }

    @Test func pairRateIsTheSlowerOfSourceAndActor() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source(rate: 250)]))
        #expect(Self.describe(router.nodeSeen(Self.node("node1", actors: [Self.actor("A1", rate: 100)])))
            == ["\(Self.sourceID)-A1@250"])
    }

    @Test func usesTheSourcesExternalRouteAndIgnoresTheActors() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source(external: "plant/sensor/temp")]))
        let events = router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")]))
        #expect(events.map(\.associatingRoute) == ["plant/sensor/temp"])
    }

    @Test func keepsASourcesRouteWhileItsNodeIsReadvertised() {
        var router = IoRouterState(context: Self.context, scope: Self.scope, rules: [.anyCompatiblePair])
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        _ = router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")]))
        #expect(router.nodeSeen(Self.node("nodeS", sources: [Self.source()])).isEmpty)
        #expect(router.associations.map(\.actorID) == ["A"])
    }

    @Test func typeRulesComeBeforeGlobalOnesAndTheFirstMatchDecides() {
        let floor: @Sendable (IoRoutingCandidate) -> Bool = { pair in
            pair.sourceNode.characteristics?["floor"] == pair.actorNode.characteristics?["floor"]
        }
        var router = IoRouterState(
            context: Self.context, scope: Self.scope,
            rules: [
                IoRoutingRule(name: "any", condition: { _ in true }),
                IoRoutingRule(name: "same floor", valueType: "number[Celsius]", condition: floor),
            ])
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()], characteristics: ["floor": 1]))
        #expect(Self.describe(router.nodeSeen(Self.node("n1", actors: [Self.actor("A1")], characteristics: ["floor": 1])))
            == ["\(Self.sourceID)-A1"])
        // A type rule that fails does not fall back to the global one.
        #expect(router.nodeSeen(Self.node("n2", actors: [Self.actor("A2")], characteristics: ["floor": 2])).isEmpty)
    }

    @Test func aThrowingConditionCountsAsNoMatchAndTheNextRuleIsTried() {
        struct Refused: Error {}
        var router = IoRouterState(
            context: Self.context, scope: Self.scope,
            rules: [
                IoRoutingRule(name: "throws", condition: { _ in throw Refused() }),
                IoRoutingRule(name: "never", condition: { _ in false }),
            ])
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        #expect(router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")])).isEmpty)
        #expect(router.failedRules == ["throws"])
        #expect(Self.describe(router.defineRules([.anyCompatiblePair])) == ["\(Self.sourceID)-A"])
    }

    @Test func stoppingDisassociatesEverythingInTheOrderItWasAssociated() {
        var router = Self.basic()
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        _ = router.nodeSeen(Self.node("node1", actors: [Self.actor("A1")]))
        _ = router.nodeSeen(Self.node("node2", actors: [Self.actor("A2")]))
        #expect(Self.describe(router.stop()) == ["\(Self.sourceID)/A1", "\(Self.sourceID)/A2"])
        #expect(router.nodes.isEmpty && router.associations.isEmpty)
    }

    @Test func anUpdatedContextReachesTheRules() {
        let router0 = IoRouterState(
            context: Self.context, scope: Self.scope,
            rules: [IoRoutingRule(name: "open", condition: { $0.context.custom["open"] == true })])
        var router = router0
        _ = router.nodeSeen(Self.node("nodeS", sources: [Self.source()]))
        #expect(router.nodeSeen(Self.node("nodeA", actors: [Self.actor("A")])).isEmpty)
        var opened = Self.context
        opened.custom["open"] = true
        #expect(Self.describe(router.contextChanged(opened)) == ["\(Self.sourceID)-A"])
    }
}
