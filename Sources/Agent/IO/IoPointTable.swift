import CoreTypes

/// An agent's IO sources and actors and their associations, without I/O, clocks or tasks.
///
/// It keeps the books exactly as coaty-js 2.4.1's `CommunicationManager` keeps `_ioSourceItems`
/// and `_ioActorItems`, quirks included: each local source has *one* route, a disassociate
/// overwrites the source's rate with the event's (`nil` from any router), and an actor's state
/// after a disassociate is unassociated even when another source still feeds it. The caller feeds
/// each inbound ``Associate`` under its lock and carries out the returned actions in order.
///
/// Like coaty-js, the lookup of a point id does not distinguish sources from actors: an Associate
/// concerns the agent when its source id or its actor id names any of the agent's points. When
/// the agent owns both points of a pair, both sides are updated (source first, then actor) and
/// both states are emitted, the source's first; the actor then subscribes to the route its own
/// source publishes on, and receives its values back through the broker.
struct IoPointTable {
    /// What the caller does, in order, after releasing its lock.
    enum Action: Equatable {
        /// Subscribe to IO values on `route` for local actors (one subscription per route); decode
        /// them as JSON unless `usesRawValues`.
        case subscribe(route: String, usesRawValues: Bool, isExternalRoute: Bool)
        /// The last local actor left `route`: unsubscribe.
        case unsubscribe(route: String)
        /// Tell the observers of IO point `pointID` its new state (once per Associate that concerns
        /// the point, even if unchanged).
        case state(pointID: String, IoState)
    }

    /// A local source's association: the route it publishes on, its actors (local or remote) in
    /// order of association, and the rate of the latest Associate about it.
    private struct SourceEntry {
        var route: String
        var actorIDs: [String]
        var updateRate: Double?
    }

    /// A local actor receiving on one route, with the sources it receives from there.
    private struct ActorEntry {
        var actorID: String
        var sourceIDs: [String]
    }

    /// Whether each local point uses raw IO values, by id; the first point of an id wins, as in
    /// coaty-js's search over the nodes.
    private let usesRawValues: [String: Bool]
    /// The local point ids in node order, sources before actors within a node.
    private let pointIDs: [String]
    private var sources: [String: SourceEntry] = [:]
    /// The local actors on each subscribed route, in order of association.
    private var routes: [String: [ActorEntry]] = [:]
    /// The subscribed routes in order of subscription (coaty-js iterates its `Map` this way).
    private var routeOrder: [String] = []

    /// Holds every IO source and actor of `ioNodes`, none of them associated.
    init(ioNodes: [IoNode]) {
        var usesRawValues: [String: Bool] = [:]
        var pointIDs: [String] = []
        for node in ioNodes {
            let points =
                (node.ioSources ?? []).map { ($0.objectID, $0.useRawIoValues == true) }
                + (node.ioActors ?? []).map { ($0.objectID, $0.useRawIoValues == true) }
            for (id, isRaw) in points where usesRawValues[id] == nil {
                usesRawValues[id] = isRaw
                pointIDs.append(id)
            }
        }
        self.usesRawValues = usesRawValues
        self.pointIDs = pointIDs
    }

    /// Whether the agent owns an IO source or actor with this id.
    func contains(_ pointID: String) -> Bool { usesRawValues[pointID] != nil }

    /// Applies an Associate (with a route) or a disassociate (without one) as coaty-js does.
    ///
    /// - Returns: the route changes, then the source's state, then the actor's; `[]` when
    ///   neither id names a local point.
    mutating func apply(_ event: Associate) -> [Action] {
        let isSourceLocal = contains(event.ioSourceID)
        let actorUsesRawValues = usesRawValues[event.ioActorID]
        guard isSourceLocal || actorUsesRawValues != nil else { return [] }
        var actions: [Action] = []
        if isSourceLocal {
            updateSource(event, &actions)
        }
        if let actorUsesRawValues {
            if let route = event.associatingRoute {
                associateActor(event, route: route, usesRawValues: actorUsesRawValues, &actions)
            } else {
                removeSource(event.ioSourceID, fromActor: event.ioActorID, &actions)
            }
        }
        if isSourceLocal {
            let entry = sources[event.ioSourceID]
            let state = IoState(hasAssociations: entry != nil, updateRate: entry?.updateRate)
            actions.append(.state(pointID: event.ioSourceID, state))
        }
        if actorUsesRawValues != nil {
            // A disassociate always leaves the actor unassociated, whatever its other routes.
            let isAssociated = event.associatingRoute.map { isActor(event.ioActorID, on: $0) } ?? false
            actions.append(.state(pointID: event.ioActorID, IoState(hasAssociations: isAssociated)))
        }
        return actions
    }

    /// The current state of a point, to replay to a new observer: a source with an entry is
    /// associated with its stored rate, an actor on any route is associated; else unassociated.
    func state(of pointID: String) -> IoState {
        if let entry = sources[pointID] { return IoState(hasAssociations: true, updateRate: entry.updateRate) }
        let isAssociated = routeOrder.contains { isActor(pointID, on: $0) }
        return IoState(hasAssociations: isAssociated)
    }

    /// The route a local source publishes on while associated (`nil` when not associated).
    func route(ofSource sourceID: String) -> String? { sources[sourceID]?.route }

    /// The local actors that receive values arriving on `route`, in order of association.
    func actors(onRoute route: String) -> [String] { routes[route]?.map(\.actorID) ?? [] }

    /// The agent stops: every point becomes unassociated, then every route is unsubscribed.
    ///
    /// coaty-js emits `(false, undefined)` to every IoState observer, associated or not, so there
    /// is a state for every point, in node order; the caller tells those that have observers. The
    /// points stay, so the agent can start again.
    mutating func reset() -> [Action] {
        defer {
            sources = [:]
            routes = [:]
            routeOrder = []
        }
        return pointIDs.map { Action.state(pointID: $0, .unassociated) }
            + routeOrder.map { Action.unsubscribe(route: $0) }
    }

    // MARK: - Private

    /// The source side: a new route replaces the old one (dropping the local actors that were
    /// associated on it), a disassociate removes the actor; either way the event's rate is stored.
    private mutating func updateSource(_ event: Associate, _ actions: inout [Action]) {
        let sourceID = event.ioSourceID
        guard var entry = sources[sourceID] else {
            if let route = event.associatingRoute {
                sources[sourceID] = SourceEntry(route: route, actorIDs: [event.ioActorID], updateRate: event.updateRate)
            }
            return
        }
        entry.updateRate = event.updateRate
        switch event.associatingRoute {
        case .some(entry.route):
            if !entry.actorIDs.contains(event.ioActorID) { entry.actorIDs.append(event.ioActorID) }
        case let route?:
            for actorID in entry.actorIDs {
                removeSource(sourceID, fromActor: actorID, onlyOn: entry.route, &actions)
            }
            entry.route = route
            entry.actorIDs = [event.ioActorID]
        case nil:
            entry.actorIDs.removeAll { $0 == event.ioActorID }
            guard !entry.actorIDs.isEmpty else {
                sources[sourceID] = nil
                return
            }
        }
        sources[sourceID] = entry
    }

    /// The actor side of an Associate: the source leaves the actor on every other route, then
    /// the actor receives from it on `route` (the route's first actor subscribes).
    private mutating func associateActor(
        _ event: Associate, route: String, usesRawValues: Bool, _ actions: inout [Action]
    ) {
        removeSource(event.ioSourceID, fromActor: event.ioActorID, except: route, &actions)
        guard var actors = routes[route] else {
            routes[route] = [ActorEntry(actorID: event.ioActorID, sourceIDs: [event.ioSourceID])]
            routeOrder.append(route)
            actions.append(
                .subscribe(route: route, usesRawValues: usesRawValues, isExternalRoute: event.isExternalRoute))
            return
        }
        if let index = actors.firstIndex(where: { $0.actorID == event.ioActorID }) {
            if !actors[index].sourceIDs.contains(event.ioSourceID) { actors[index].sourceIDs.append(event.ioSourceID) }
        } else {
            actors.append(ActorEntry(actorID: event.ioActorID, sourceIDs: [event.ioSourceID]))
        }
        routes[route] = actors
    }

    /// Removes `sourceID` from a local actor on `onlyOn` (or every route but `except`); an actor
    /// left without sources leaves the route, and a route left without actors is unsubscribed.
    private mutating func removeSource(
        _ sourceID: String, fromActor actorID: String, onlyOn: String? = nil, except: String? = nil,
        _ actions: inout [Action]
    ) {
        var emptied: [String] = []
        for route in routeOrder where route != except && (onlyOn == nil || route == onlyOn) {
            guard var actors = routes[route], let index = actors.firstIndex(where: { $0.actorID == actorID }) else {
                continue
            }
            actors[index].sourceIDs.removeAll { $0 == sourceID }
            if actors[index].sourceIDs.isEmpty { actors.remove(at: index) }
            routes[route] = actors
            if actors.isEmpty { emptied.append(route) }
        }
        for route in emptied {
            routes[route] = nil
            routeOrder.removeAll { $0 == route }
            actions.append(.unsubscribe(route: route))
        }
    }

    /// Whether local actor `actorID` receives from at least one source on `route`.
    private func isActor(_ actorID: String, on route: String) -> Bool {
        routes[route]?.contains { $0.actorID == actorID && !$0.sourceIDs.isEmpty } ?? false
    }
}
