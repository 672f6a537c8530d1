import CoreTypes
import Synchronization

/// An agent's side of IO routing: the associations of its IO sources and actors
/// (``IoPointTable``), the observers of their states and of its actors' values, and the inline
/// observers of the routes its actors are associated with.
///
/// Its lock is never held while the agent's own lock is taken, nor the other way round: the agent
/// asks the hub, lets go, then carries out what the hub said.
final class IoHub: Sendable {
    private struct State {
        var table: IoPointTable
        var stateObservers: [String: [ObserverID: DeliveryQueue<IoState>]] = [:]
        var valueObservers: [String: [ObserverID: DeliveryQueue<IoValue>]] = [:]
        /// The agent's inline observer of each subscribed route.
        var routeObservers: [String: ObserverID] = [:]
        var isStopped = false
    }

    private let state: Mutex<State>
    /// The sources and actors by id, from the agent's configuration.
    let sources: [String: IoSource]
    let actors: [String: IoActor]

    init(ioNodes: [IoNode]) {
        state = Mutex(State(table: IoPointTable(ioNodes: ioNodes)))
        var sources: [String: IoSource] = [:]
        var actors: [String: IoActor] = [:]
        for node in ioNodes {
            for source in node.ioSources ?? [] where sources[source.objectID] == nil { sources[source.objectID] = source }
            for actor in node.ioActors ?? [] where actors[actor.objectID] == nil { actors[actor.objectID] = actor }
        }
        self.sources = sources
        self.actors = actors
    }

    /// Applies an Associate: returns the routes to subscribe or unsubscribe, and the states to
    /// deliver to observers (after those, so that an actor's observers see it associated once its
    /// route's subscription has gone out).
    func apply(_ event: Associate) -> (routes: [IoPointTable.Action], states: [(DeliveryQueue<IoState>, IoState)]) {
        state.withLock { state in
            guard !state.isStopped else { return ([], []) }
            var routes: [IoPointTable.Action] = []
            var states: [(DeliveryQueue<IoState>, IoState)] = []
            for action in state.table.apply(event) {
                if case .state(let pointID, let ioState) = action {
                    for queue in state.stateObservers[pointID, default: [:]].values { states.append((queue, ioState)) }
                } else {
                    routes.append(action)
                }
            }
            return (routes, states)
        }
    }

    /// The route `sourceID` publishes on while associated.
    func route(ofSource sourceID: String) -> String? {
        state.withLock { $0.table.route(ofSource: sourceID) }
    }

    /// The current state of an IO point.
    func ioState(of pointID: String) -> IoState {
        state.withLock { $0.table.state(of: pointID) }
    }

    /// Adds an observer of a point's states; it gets the current state first. `false` once the agent stopped.
    func addStateObserver(_ id: ObserverID, of pointID: String, _ queue: DeliveryQueue<IoState>) -> Bool {
        state.withLock { state in
            guard !state.isStopped else { return false }
            _ = queue.yield(state.table.state(of: pointID))
            state.stateObservers[pointID, default: [:]][id] = queue
            return true
        }
    }

    /// Adds an observer of the values an actor receives. `false` once the agent stopped.
    func addValueObserver(_ id: ObserverID, of actorID: String, _ queue: DeliveryQueue<IoValue>) -> Bool {
        state.withLock { state in
            guard !state.isStopped else { return false }
            state.valueObservers[actorID, default: [:]][id] = queue
            return true
        }
    }

    /// Removes an observer of states or values.
    func removeObserver(_ id: ObserverID, of pointID: String) {
        state.withLock { state in
            state.stateObservers[pointID]?[id] = nil
            state.valueObservers[pointID]?[id] = nil
        }
    }

    /// Remembers the agent's inline observer of `route`; returns the previous one, if any.
    func setRouteObserver(_ id: ObserverID?, for route: String) -> ObserverID? {
        state.withLock { state in
            defer { state.routeObservers[route] = id }
            return state.routeObservers[route]
        }
    }

    /// Delivers a value that arrived on `route` to the observers of every actor associated with it.
    /// Returns how each delivery went, for the agent's counters.
    func deliver(_ value: IoValue, onRoute route: String) -> [QueueYieldResult] {
        let queues = state.withLock { state in
            state.table.actors(onRoute: route).flatMap { state.valueObservers[$0, default: [:]].values }
        }
        return queues.map { $0.yield(value) }
    }

    /// The agent stops: every state observer gets a last, unassociated state (from the table's
    /// reset), then every observer ends. The agent removes the routes' observers itself.
    func stop() {
        let (states, stateQueues, valueQueues) = state.withLock { state in
            state.isStopped = true
            var states: [(DeliveryQueue<IoState>, IoState)] = []
            for case .state(let pointID, let ioState) in state.table.reset() {
                for queue in state.stateObservers[pointID, default: [:]].values { states.append((queue, ioState)) }
            }
            let stateQueues = state.stateObservers.values.flatMap(\.values)
            let valueQueues = state.valueObservers.values.flatMap(\.values)
            state.stateObservers = [:]
            state.valueObservers = [:]
            state.routeObservers = [:]
            return (states, stateQueues, valueQueues)
        }
        for (queue, ioState) in states { _ = queue.yield(ioState) }
        for queue in stateQueues { queue.finish() }
        for queue in valueQueues { queue.finish() }
    }
}
