import CoreTypes
import Testing

@testable import Agent

/// Ids and routes of /work/shared/vectors/io-sessions.json.
private enum ID {
    static let source = "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let source2 = "1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
    static let actor = "2a4c6e8a-0b1d-4e3f-a5b7-c9d1e3f5a7b9"
    static let actor2 = "4e5f6071-8a9b-4cad-9ebf-c0d1e2f30415"
    static let route = "coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let route2 = "coaty/3/-/IOV/1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f"
    static let externalRoute = "plant/sensor/temp"
}

private let associated = IoState(hasAssociations: true)

private func associate(
    _ source: String, _ actor: String, on route: String, rate: Double? = nil, isExternal: Bool = false
) -> Associate {
    Associate(
        ioContextName: "kitchen", ioSourceID: source, ioActorID: actor, associatingRoute: route,
        isExternalRoute: isExternal, updateRate: rate)
}

private func disassociate(_ source: String, _ actor: String) -> Associate {
    Associate(ioContextName: "kitchen", ioSourceID: source, ioActorID: actor, associatingRoute: nil)
}

private func table(sources: [String] = [], actors: [String] = [], rawActors: [String] = []) -> IoPointTable {
    let node = IoNode(
        name: "kitchen",
        ioSources: sources.map { IoSource(objectID: $0, name: "Kitchen thermometer", valueType: "number[Celsius]") },
        ioActors: actors.map { IoActor(objectID: $0, name: "Kitchen display", valueType: "number[Celsius]") }
            + rawActors.map { IoActor(objectID: $0, name: "Raw display", valueType: "raw", useRawIoValues: true) })
    return IoPointTable(ioNodes: [node])
}

@Suite struct IoPointTableTests {
    @Test func sourceIsAssociatedAndDisassociated() {
        var points = table(sources: [ID.source])
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 500)) == [
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: 500))
            ])
        #expect(points.route(ofSource: ID.source) == ID.route)
        #expect(points.state(of: ID.source) == IoState(hasAssociations: true, updateRate: 500))
        #expect(points.actors(onRoute: ID.route).isEmpty)

        #expect(points.apply(disassociate(ID.source, ID.actor)) == [.state(pointID: ID.source, .unassociated)])
        #expect(points.route(ofSource: ID.source) == nil)
        #expect(points.state(of: ID.source) == .unassociated)
    }

    @Test func actorSubscribesOnAssociateAndUnsubscribesOnDisassociate() {
        var points = table(actors: [ID.actor])
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 500)) == [
                .subscribe(route: ID.route, usesRawValues: false, isExternalRoute: false),
                .state(pointID: ID.actor, associated),  // an actor's state never has a rate
            ])
        #expect(points.actors(onRoute: ID.route) == [ID.actor])
        #expect(points.state(of: ID.actor) == associated)
        #expect(points.route(ofSource: ID.source) == nil)

        #expect(
            points.apply(disassociate(ID.source, ID.actor)) == [
                .unsubscribe(route: ID.route), .state(pointID: ID.actor, .unassociated),
            ])
        #expect(points.actors(onRoute: ID.route).isEmpty)
        #expect(points.state(of: ID.actor) == .unassociated)
    }

    @Test func rawActorAndExternalRouteReachTheSubscription() {
        var points = table(rawActors: [ID.actor])
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.externalRoute, isExternal: true)) == [
                .subscribe(route: ID.externalRoute, usesRawValues: true, isExternalRoute: true),
                .state(pointID: ID.actor, associated),
            ])
    }

    @Test func agentOwningSourceAndActorUpdatesSourceFirst() {
        var points = table(sources: [ID.source], actors: [ID.actor])
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 100)) == [
                .subscribe(route: ID.route, usesRawValues: false, isExternalRoute: false),
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: 100)),
                .state(pointID: ID.actor, associated),
            ])
        #expect(points.route(ofSource: ID.source) == ID.route)
        #expect(points.actors(onRoute: ID.route) == [ID.actor])

        #expect(
            points.apply(disassociate(ID.source, ID.actor)) == [
                .unsubscribe(route: ID.route),
                .state(pointID: ID.source, .unassociated),
                .state(pointID: ID.actor, .unassociated),
            ])
        #expect(points.route(ofSource: ID.source) == nil)
        #expect(points.actors(onRoute: ID.route).isEmpty)
    }

    @Test func repeatedAssociateEmitsStateAgainWithoutSubscribingAgain() {
        var points = table(sources: [ID.source], actors: [ID.actor])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route))
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route)) == [
                .state(pointID: ID.source, associated), .state(pointID: ID.actor, associated),
            ])
        #expect(points.actors(onRoute: ID.route) == [ID.actor])
    }

    @Test func routeChangeDropsTheLocalActorsOfTheOldRoute() {
        var points = table(sources: [ID.source], actors: [ID.actor])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route))
        // A remote actor on a new route: the source keeps one route, its local actor loses the old one.
        #expect(
            points.apply(associate(ID.source, ID.actor2, on: ID.externalRoute, rate: 250)) == [
                .unsubscribe(route: ID.route),
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: 250)),
            ])
        #expect(points.route(ofSource: ID.source) == ID.externalRoute)
        #expect(points.actors(onRoute: ID.route).isEmpty)
        #expect(points.state(of: ID.actor) == .unassociated)
        // Disassociating the dropped actor leaves the source's only (new) actor in place.
        #expect(
            points.apply(disassociate(ID.source, ID.actor)) == [
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: nil)),
                .state(pointID: ID.actor, .unassociated),
            ])
        #expect(points.route(ofSource: ID.source) == ID.externalRoute)
    }

    @Test func actorMovesToTheNewRouteOfItsSource() {
        var points = table(actors: [ID.actor])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route))
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.externalRoute, isExternal: true)) == [
                .unsubscribe(route: ID.route),
                .subscribe(route: ID.externalRoute, usesRawValues: false, isExternalRoute: true),
                .state(pointID: ID.actor, associated),
            ])
        #expect(points.actors(onRoute: ID.route).isEmpty)
        #expect(points.actors(onRoute: ID.externalRoute) == [ID.actor])
    }

    @Test func secondActorSharesTheRouteAndItsSubscription() {
        var points = table(sources: [ID.source], actors: [ID.actor, ID.actor2])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 100))
        #expect(
            points.apply(associate(ID.source, ID.actor2, on: ID.route, rate: 500)) == [
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: 500)),
                .state(pointID: ID.actor2, associated),
            ])
        #expect(points.route(ofSource: ID.source) == ID.route)
        #expect(points.actors(onRoute: ID.route) == [ID.actor, ID.actor2])
    }

    @Test func disassociatingOneOfTwoActorsDropsTheRate() {
        var points = table(sources: [ID.source])
        // The RuleBasedIoRouter's worked example (notes §6.3): S-A1 100, S-A1 500, S-A2 500, S-A1 100, S-A2 off.
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 100))
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 500))
        _ = points.apply(associate(ID.source, ID.actor2, on: ID.route, rate: 500))
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 100)) == [
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: 100))
            ])
        #expect(
            points.apply(disassociate(ID.source, ID.actor2)) == [
                .state(pointID: ID.source, IoState(hasAssociations: true, updateRate: nil))
            ])
        #expect(points.route(ofSource: ID.source) == ID.route)
        #expect(points.state(of: ID.source) == associated)

        #expect(points.apply(disassociate(ID.source, ID.actor)) == [.state(pointID: ID.source, .unassociated)])
        #expect(points.route(ofSource: ID.source) == nil)
    }

    @Test func disassociatingOneLocalActorKeepsTheOtherOnTheRoute() {
        var points = table(actors: [ID.actor, ID.actor2])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route))
        _ = points.apply(associate(ID.source, ID.actor2, on: ID.route))
        #expect(points.apply(disassociate(ID.source, ID.actor)) == [.state(pointID: ID.actor, .unassociated)])
        #expect(points.actors(onRoute: ID.route) == [ID.actor2])
    }

    @Test func actorOfTwoSourcesIsUnassociatedAfterOneLeavesButStillReceives() {
        var points = table(actors: [ID.actor])
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route)) == [
                .subscribe(route: ID.route, usesRawValues: false, isExternalRoute: false),
                .state(pointID: ID.actor, associated),
            ])
        #expect(
            points.apply(associate(ID.source2, ID.actor, on: ID.route2)) == [
                .subscribe(route: ID.route2, usesRawValues: false, isExternalRoute: false),
                .state(pointID: ID.actor, associated),
            ])
        // coaty-js quirk: any disassociate reports the actor unassociated.
        #expect(
            points.apply(disassociate(ID.source, ID.actor)) == [
                .unsubscribe(route: ID.route), .state(pointID: ID.actor, .unassociated),
            ])
        #expect(points.actors(onRoute: ID.route).isEmpty)
        #expect(points.actors(onRoute: ID.route2) == [ID.actor])
        // A new observer's replay, however, looks at every route.
        #expect(points.state(of: ID.actor) == associated)
    }

    @Test func unknownIDsAreIgnored() {
        var points = table(sources: [ID.source], actors: [ID.actor])
        #expect(points.apply(associate(ID.source2, ID.actor2, on: ID.route2, rate: 10)).isEmpty)
        #expect(points.apply(disassociate(ID.source2, ID.actor2)).isEmpty)
        #expect(!points.contains(ID.source2))
        #expect(points.contains(ID.source) && points.contains(ID.actor))
        #expect(points.state(of: ID.actor2) == .unassociated)
        #expect(points.route(ofSource: ID.source2) == nil)
        #expect(points.actors(onRoute: ID.route2).isEmpty)
    }

    @Test func disassociatingAnUnassociatedPointStillReportsItsState() {
        // events.json `in-Associate-disassociate-unknown`: the state goes out even though nothing changed.
        var points = table(sources: [ID.source], actors: [ID.actor])
        #expect(points.apply(disassociate(ID.source2, ID.actor)) == [.state(pointID: ID.actor, .unassociated)])
        #expect(points.apply(disassociate(ID.source, ID.actor2)) == [.state(pointID: ID.source, .unassociated)])
    }

    @Test func resetUnassociatesEveryPointAndUnsubscribesEveryRoute() {
        var points = table(sources: [ID.source], actors: [ID.actor, ID.actor2])
        _ = points.apply(associate(ID.source, ID.actor, on: ID.route, rate: 500))
        _ = points.apply(associate(ID.source2, ID.actor2, on: ID.route2))
        #expect(
            points.reset() == [
                .state(pointID: ID.source, .unassociated),
                .state(pointID: ID.actor, .unassociated),
                .state(pointID: ID.actor2, .unassociated),
                .unsubscribe(route: ID.route),
                .unsubscribe(route: ID.route2),
            ])
        #expect(points.route(ofSource: ID.source) == nil)
        #expect(points.actors(onRoute: ID.route).isEmpty && points.actors(onRoute: ID.route2).isEmpty)
        #expect(points.state(of: ID.source) == .unassociated && points.state(of: ID.actor2) == .unassociated)
        // The points stay: after a restart, associations start from scratch.
        #expect(points.contains(ID.actor))
        #expect(
            points.apply(associate(ID.source, ID.actor, on: ID.route)).first
                == .subscribe(route: ID.route, usesRawValues: false, isExternalRoute: false))
    }
}
