import CoreTypes

/// What an IO router knows and decides, without I/O: the IO nodes of its context, its rules, the
/// routes it gave each source and the associations it made; each change returns the Associate
/// events to publish, in order, as coaty-js's `RuleBasedIoRouter` publishes them.
struct IoRouterState {
    /// One association the router made.
    struct Association: Equatable {
        var sourceID: String
        var actorID: String
        var updateRate: Double?

        /// The source and actor ids, which identify an association.
        var pair: [String] { [sourceID, actorID] }
    }

    private(set) var context: IoContext
    /// The router agent's scope, for the routes it makes (`coaty/3/<namespace>/IOV/<source id>`).
    let scope: AgentScope
    private var typeRules: [String: [IoRoutingRule]] = [:]
    private var globalRules: [IoRoutingRule] = []
    /// The managed IO nodes, in the order they were (last) advertised.
    private(set) var nodes: [IoNode] = []
    /// The route of each source that has been associated; kept while its node stays managed.
    private var sourceRoutes: [String: String] = [:]
    /// The current associations, in the order they were made.
    private(set) var associations: [Association] = []
    /// Names of rules whose condition threw during the last evaluation, for the caller to log.
    private(set) var failedRules: [String] = []

    init(context: IoContext, scope: AgentScope, rules: [IoRoutingRule]) {
        self.context = context
        self.scope = scope
        setRules(rules)
    }

    /// Replaces the rules and evaluates them.
    mutating func defineRules(_ rules: [IoRoutingRule]) -> [Associate] {
        setRules(rules)
        return evaluate()
    }

    /// An IO node was advertised or resolved. Nodes of other contexts are ignored; a node without
    /// sources and actors counts as gone.
    mutating func nodeSeen(_ node: IoNode) -> [Associate] {
        guard node.name == context.name else { return [] }
        let sources = node.ioSources ?? []
        if sources.isEmpty && (node.ioActors ?? []).isEmpty { return deadvertised([node.objectID]) }
        if let index = nodes.firstIndex(where: { $0.objectID == node.objectID }) {
            let kept = Set(sources.map(\.objectID))
            for source in nodes[index].ioSources ?? [] where !kept.contains(source.objectID) {
                sourceRoutes[source.objectID] = nil
            }
            nodes.remove(at: index)
        }
        nodes.append(node)
        return evaluate()
    }

    /// Objects were deadvertised (an agent left, or its last will): the IO nodes among them go.
    mutating func deadvertised(_ objectIDs: [String]) -> [Associate] {
        let gone = Set(objectIDs)
        let leaving = nodes.filter { gone.contains($0.objectID) }
        guard !leaving.isEmpty else { return [] }
        for node in leaving {
            for source in node.ioSources ?? [] { sourceRoutes[source.objectID] = nil }
        }
        nodes.removeAll { gone.contains($0.objectID) }
        return evaluate()
    }

    /// The IO context changed (an Update): rules see the new one.
    mutating func contextChanged(_ newContext: IoContext) -> [Associate] {
        context = newContext
        return evaluate()
    }

    /// The router stops: every association is undone, in the order it was made, and forgotten.
    mutating func stop() -> [Associate] {
        let events = associations.map { disassociate($0.sourceID, $0.actorID) }
        associations = []
        nodes = []
        sourceRoutes = [:]
        return events
    }

    private mutating func setRules(_ rules: [IoRoutingRule]) {
        typeRules = [:]
        globalRules = []
        for rule in rules {
            if let type = rule.valueType, !type.isEmpty {
                typeRules[type, default: []].append(rule)
            } else {
                globalRules.append(rule)
            }
        }
    }

    /// Pairs every compatible source and actor, keeps those a rule accepts, gives each source the
    /// slowest rate among its actors, and returns the Associate events that move the current
    /// associations there.
    private mutating func evaluate() -> [Associate] {
        failedRules = []
        var resolved: [Association] = []
        let (sources, actors) = points()
        for (source, sourceNode) in sources {
            for (actor, actorNode) in actors where Self.areCompatible(source, actor) {
                let candidate = IoRoutingCandidate(
                    source: source, sourceNode: sourceNode, actor: actor, actorNode: actorNode, context: context)
                if accepts(candidate) {
                    resolved.append(
                        Association(
                            sourceID: source.objectID, actorID: actor.objectID,
                            updateRate: Self.slower(source.updateRate, actor.updateRate)))
                }
            }
        }
        var sourceRates: [String: Double] = [:]
        for association in resolved {
            if let rate = Self.slower(sourceRates[association.sourceID], association.updateRate) {
                sourceRates[association.sourceID] = rate
            }
        }
        for index in resolved.indices { resolved[index].updateRate = sourceRates[resolved[index].sourceID] }

        var events: [Associate] = []
        var kept: [Association] = []
        let resolvedByPair = Dictionary(resolved.map { ($0.pair, $0) }, uniquingKeysWith: { first, _ in first })
        for current in associations {
            guard let now = resolvedByPair[current.pair] else {
                events.append(disassociate(current.sourceID, current.actorID))
                continue
            }
            if now.updateRate != current.updateRate { events.append(associate(now, sources)) }
            kept.append(now)
        }
        var keptPairs = Set(kept.map(\.pair))
        for association in resolved where keptPairs.insert(association.pair).inserted {
            events.append(associate(association, sources))
            kept.append(association)
        }
        associations = kept
        return events
    }

    /// Every source and actor of the managed nodes with its node, in node order; a point listed
    /// twice keeps its first place and its last node.
    private func points() -> (sources: [(IoSource, IoNode)], actors: [(IoActor, IoNode)]) {
        var sources: [(IoSource, IoNode)] = []
        var actors: [(IoActor, IoNode)] = []
        for node in nodes {
            for source in node.ioSources ?? [] {
                if let index = sources.firstIndex(where: { $0.0.objectID == source.objectID }) {
                    sources[index] = (source, node)
                } else {
                    sources.append((source, node))
                }
            }
            for actor in node.ioActors ?? [] {
                if let index = actors.firstIndex(where: { $0.0.objectID == actor.objectID }) {
                    actors[index] = (actor, node)
                } else {
                    actors.append((actor, node))
                }
            }
        }
        return (sources, actors)
    }

    private mutating func accepts(_ candidate: IoRoutingCandidate) -> Bool {
        let typed = typeRules[candidate.source.valueType] ?? []
        for rule in typed.isEmpty ? globalRules : typed {
            do {
                if try rule.condition(candidate) { return true }
            } catch {
                failedRules.append(rule.name)
            }
        }
        return false
    }

    private mutating func associate(_ association: Association, _ sources: [(IoSource, IoNode)]) -> Associate {
        let route: String
        if let known = sourceRoutes[association.sourceID] {
            route = known
        } else {
            let external = sources.first { $0.0.objectID == association.sourceID }?.0.externalRoute
            if let external, !external.isEmpty {
                route = external
            } else {
                route = scope.ioRoute(forIoSource: association.sourceID)
            }
            sourceRoutes[association.sourceID] = route
        }
        return Associate(
            ioContextName: context.name, ioSourceID: association.sourceID, ioActorID: association.actorID,
            associatingRoute: route, updateRate: association.updateRate)
    }

    private func disassociate(_ sourceID: String, _ actorID: String) -> Associate {
        Associate(ioContextName: context.name, ioSourceID: sourceID, ioActorID: actorID, associatingRoute: nil)
    }

    /// coaty-js's default compatibility: equal value types, and both raw or both JSON.
    static func areCompatible(_ source: IoSource, _ actor: IoActor) -> Bool {
        source.valueType == actor.valueType && (source.useRawIoValues ?? false) == (actor.useRawIoValues ?? false)
    }

    /// The slower (larger) of two rates, or the one that is set.
    static func slower(_ first: Double?, _ second: Double?) -> Double? {
        switch (first, second) {
        case (let first?, let second?): max(first, second)
        case (let rate?, nil), (nil, let rate?): rate
        case (nil, nil): nil
        }
    }
}
