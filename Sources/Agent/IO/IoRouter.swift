public import CoreTypes
public import Logging
import ServiceLifecycle
import Synchronization

/// Associates the IO sources and IO actors of one IO context, as coaty-js's IO routers do: it
/// finds the IO nodes of its context (a Discover at start, then their Advertise and Deadvertise
/// events, last wills included), pairs every source with every actor of the same value type (both
/// raw or both JSON) that one of its ``IoRoutingRule``s accepts, and tells their agents with
/// Associate events; values then flow from source to actor without the router.
///
/// coaty-js's `BasicIoRouter` is an `IoRouter` with the default rule
/// (``IoRoutingRule/anyCompatiblePair``); its `RuleBasedIoRouter` is one with your rules. A source
/// gets the slowest update rate among its actors (each pair's rate being the slower of the
/// source's and the actor's). The router advertises its `IoContext` (with the router's identity as
/// parent), resolves Discovers for it, takes Updates of it (and re-evaluates), and undoes every
/// association when it stops.
///
/// ```swift
/// let components = Components(controllers: [.ioRouter(ioContext: IoContext(name: "kitchen"))])
/// ```
public final class IoRouter: Controller, TaskRunningController {
    /// The options of an ``IoRouter`` in a configuration: `{"ioContext": {"name": "kitchen", …}}`;
    /// the IO context needs at least its `name`.
    public struct Options: Sendable, Decodable {
        /// The IO context the router associates in.
        public var ioContext: IoContext

        /// Creates options.
        public init(ioContext: IoContext) {
            self.ioContext = ioContext
        }

        private enum CodingKeys: String, CodingKey { case ioContext }

        /// Decodes `{"ioContext": …}`; a context given only by name gets the other fields of a new one.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            var json = try container.decode(JSONObject.self, forKey: .ioContext)
            if json["objectId"] == nil { json["objectId"] = .string(ObjectID.make()) }
            if json["objectType"] == nil { json["objectType"] = .string(IoContext.objectType) }
            if json["coreType"] == nil { json["coreType"] = .string(CoreType.ioContext.rawValue) }
            do {
                ioContext = try IoContext(jsonObject: json)
            } catch {
                throw DecodingError.dataCorruptedError(
                    forKey: .ioContext, in: container, debugDescription: "not an IoContext: \(error)")
            }
        }
    }

    /// The agent that observes and publishes.
    public let agent: Agent
    let logger: Logger
    let tasks = ControllerTasks()
    private let state: Mutex<IoRouterState>
    private let responders = Mutex<[InlineResponder]>([])

    /// Creates a router for `ioContext` that associates the pairs `rules` accept (by default every
    /// compatible pair).
    public init(
        agent: Agent, ioContext: IoContext, rules: [IoRoutingRule] = [.anyCompatiblePair],
        logger: Logger = Logger.current
    ) {
        self.agent = agent
        self.logger = logger
        var context = ioContext
        context.parentObjectID = agent.identity.objectID
        state = Mutex(IoRouterState(context: context, scope: agent.scope, rules: rules))
    }

    /// The IO context, as last advertised.
    public var ioContext: IoContext { state.withLock { $0.context } }

    /// The current associations: (source id, actor id, update rate), in the order they were made.
    public var associations: [(sourceID: String, actorID: String, updateRate: Double?)] {
        state.withLock { $0.associations.map { ($0.sourceID, $0.actorID, $0.updateRate) } }
    }

    /// Replaces the rules and associates again by them.
    public func defineRules(_ rules: [IoRoutingRule]) throws {
        try change { $0.defineRules(rules) }
    }

    /// Starts following the IO nodes of the context, asks for those already there, and advertises
    /// the context; before the agent connects, so nothing is missed.
    public func initialize() async throws {
        let advertise = try await agent.observeAdvertise(coreType: .ioNode)
        let deadvertise = try await agent.observeDeadvertise()
        let context = ioContext
        let discovers = try await agent.startServingDiscover { [logger] request in
            let discover = request.event
            guard discover.isDiscoveringTypes || discover.externalID == nil, discover.matches(context) else { return }
            do {
                try request.respond(Resolve(object: context))
            } catch {
                logger.debug("IoContext not resolved", metadata: ["error": "\(error)"])
            }
        }
        let updates = try await agent.startServingUpdate(coreType: .ioContext) { [weak self] request in
            try self?.update(request)
        }
        responders.withLock { $0 = [discovers, updates] }
        let resolves = try await agent.discover(Discover(coreTypes: [.ioNode]), timeout: .seconds(10 * 365 * 86_400))
        try agent.advertise(context)
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        tasks.add {
            _ = await forward(advertise, to: input) { .seen($0.event.object) }
        }
        tasks.add {
            _ = await forward(deadvertise, to: input) { .deadvertised($0.event.objectIDs) }
        }
        tasks.add {
            do {
                for try await resolve in resolves {
                    if let object = resolve.event.object { input.yield(.seen(object)) }
                }
            } catch {}
        }
        tasks.add { [self] in
            for await next in inputs {
                do {
                    switch next {
                    case .seen(let object):
                        guard let node = object as? IoNode else { continue }
                        try change { $0.nodeSeen(node) }
                    case .deadvertised(let ids):
                        try change { $0.deadvertised(ids) }
                    }
                } catch {
                    logger.debug("Associate not published", metadata: ["error": "\(error)"])
                }
            }
        }
    }

    /// Undoes every association while the agent is still connected, then ends the observations.
    public func willStop() async throws {
        defer {
            tasks.finish()
            for responder in responders.withLock({ $0 }) { responder.cancel() }
        }
        try change { $0.stop() }
    }

    private enum Input: Sendable {
        case seen(any CoatyObject)
        case deadvertised([String])
    }

    /// Takes an Update of the context: the new context is advertised, the rules see it, and the
    /// request is completed with it.
    private func update(_ request: IncomingRequest<Update>) throws {
        guard var context = request.event.object as? IoContext, context.objectID == ioContext.objectID else { return }
        context.parentObjectID = agent.identity.objectID
        try agent.advertise(context)
        try change { $0.contextChanged(context) }
        try request.respond(Complete(object: context))
    }

    /// Changes the router's state, then publishes the Associate events of the change in order and
    /// logs the rules whose condition threw while it evaluated.
    private func change(_ body: (inout IoRouterState) -> [Associate]) throws {
        let (events, failedRules) = state.withLock { state in (body(&state), state.failedRules) }
        for name in failedRules {
            logger.info("IO routing rule failed; the pair counts as not matching", metadata: ["coaty.rule": "\(name)"])
        }
        for event in events { try agent.publish(event) }
    }

}

extension ControllerComponent {
    /// An ``IoRouter`` for `ioContext` with `rules` (by default coaty-js's `BasicIoRouter`: every
    /// compatible pair); without `ioContext`, the one of its ``IoRouter/Options`` in the configuration.
    public static func ioRouter(
        name: String = "BasicIoRouter", ioContext: IoContext? = nil, rules: [IoRoutingRule] = [.anyCompatiblePair]
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            let options = try ioContext.map(IoRouter.Options.init) ?? context.options(as: IoRouter.Options.self)
            return IoRouter(agent: context.agent, ioContext: options.ioContext, rules: rules, logger: context.logger)
        }
    }
}
