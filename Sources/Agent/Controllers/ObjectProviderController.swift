public import CoreTypes
public import Logging
import ServiceLifecycle
import Synchronization

/// Holds objects for the network: advertises them each time the agent goes online, resolves the
/// Discovers and answers the Queries that concern them, and deadvertises them when it stops.
///
/// It is what `agent-runner run` uses for the `objects` of a configuration file; a program can
/// use it for any fixed set of objects it provides.
///
/// ```swift
/// let components = Components(controllers: [.objectProvider(objects: [lamp, sensor])])
/// ```
///
/// - A Discover is resolved with each held object it matches (CoreTypes' `Discover.matches(_:)`: ids,
///   external ids and types), one Resolve per object.
/// - A Query gets one Retrieve with the held objects of its types that its object filter keeps
///   (conditions, ordering, `skip` and `take`), unless none do. Join conditions are not applied.
/// - With `acceptsUpdates`, an Update of a held object (same object id and object type) replaces
///   it and is answered with a Complete of the new object; later answers give the new state.
public final class ObjectProviderController: Controller {
    /// The options of an ``ObjectProviderController`` in a configuration:
    /// `{"objects": [ … ], "acceptUpdates": true}`, each object a Coaty object as JSON, decoded with
    /// the container's object types.
    public struct Options: Sendable, Decodable {
        /// The objects as JSON.
        public var objects: [JSONValue]
        /// Whether Updates of the held objects replace them.
        public var acceptsUpdates: Bool

        /// Creates options.
        public init(objects: [JSONValue] = [], acceptsUpdates: Bool = false) {
            self.objects = objects
            self.acceptsUpdates = acceptsUpdates
        }

        private enum CodingKeys: String, CodingKey {
            case objects
            case acceptsUpdates = "acceptUpdates"
        }

        /// Decodes `{"objects": [ … ], "acceptUpdates": …}`; a missing member means no objects, no updates.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            objects = try container.decodeIfPresent([JSONValue].self, forKey: .objects) ?? []
            acceptsUpdates = try container.decodeIfPresent(Bool.self, forKey: .acceptsUpdates) ?? false
        }
    }

    /// The agent that publishes and answers.
    public let agent: Agent
    /// Whether Updates of the held objects replace them.
    public let acceptsUpdates: Bool
    let logger: Logger
    private let held: Mutex<[any CoatyObject]>
    /// The inline responders answering Discovers, Queries and Updates, from ``initialize()`` on.
    private let responders = Mutex<[InlineResponder]>([])

    /// Creates a controller that holds `objects` for `agent`.
    public init(
        agent: Agent, objects: [any CoatyObject], acceptsUpdates: Bool = false, logger: Logger = Logger.current
    ) {
        self.agent = agent
        self.held = Mutex(objects)
        self.acceptsUpdates = acceptsUpdates
        self.logger = logger
    }

    /// The objects held now, in the order they are advertised.
    public var objects: [any CoatyObject] { held.withLock { $0 } }

    /// Creates the controller from its container context, decoding the objects of its ``Options``.
    ///
    /// - Throws: ``ContainerError`` with code `ContainerError.Code.invalidOptions` naming the
    ///   object that does not decode.
    public convenience init(context: ControllerContext) throws {
        let options = try context.options(as: Options.self)
        var objects: [any CoatyObject] = []
        for (index, json) in options.objects.enumerated() {
            do {
                objects.append(try context.agent.registry.decodeObject(json))
            } catch {
                throw ContainerError(
                    code: .invalidOptions, controller: context.name,
                    detail: "controller '\(context.name)': objects[\(index)] is not a valid Coaty object: \(error)")
            }
        }
        self.init(agent: context.agent, objects: objects, acceptsUpdates: options.acceptsUpdates, logger: context.logger)
    }

    /// Starts answering Discovers and Queries before the agent connects, so no request is missed.
    ///
    /// The answers come from the objects held, without waiting, so they are made inline, on the
    /// agent's network thread (``Agent/serveDiscover(responderGroup:isolation:_:)``): no task is woken per request.
    public func initialize() async throws {
        let discovers = try await agent.startServingDiscover { [self] request in
            Self.resolve(request, from: objects, logger: logger)
        }
        let queries = try await agent.startServingQuery { [self] request in
            Self.retrieve(request, from: objects, logger: logger)
        }
        var started = [discovers, queries]
        if acceptsUpdates {
            // An Update goes out on its object type's topic, and on its core type's only for the
            // core types' own object types (coaty-js): one subscription per kind held answers each once.
            var coreTypes = Set<CoreType>()
            var objectTypes = Set<String>()
            for object in objects {
                if CoreType(canonicalObjectType: object.objectType) == object.coreType {
                    coreTypes.insert(object.coreType)
                } else {
                    objectTypes.insert(object.objectType)
                }
            }
            for coreType in coreTypes.sorted(by: { $0.rawValue < $1.rawValue }) {
                started.append(try await agent.startServingUpdate(coreType: coreType) { [self] in apply($0) })
            }
            for objectType in objectTypes.sorted() {
                started.append(try await agent.startServingUpdate(objectType: objectType) { [self] in apply($0) })
            }
        }
        responders.withLock { $0 = started }
    }

    /// Replaces the held object an Update names (same id and object type) and completes it.
    private func apply(_ request: IncomingRequest<Update>) {
        let update = request.event.object
        let replaced = held.withLock { held -> Bool in
            guard let index = held.firstIndex(where: {
                $0.objectID == update.objectID && $0.objectType == update.objectType
            }) else { return false }
            held[index] = update
            return true
        }
        guard replaced else { return }
        do {
            try request.respond(Complete(object: update))
        } catch {
            logger.debug("Complete not sent", metadata: ["coaty.object": "\(update.objectID)", "error": "\(error)"])
        }
    }

    /// Advertises the objects (again after every reconnect: others may have seen this agent's will).
    public func didGoOnline() async throws {
        for object in objects { try agent.advertise(object) }
    }

    /// Deadvertises the objects while the agent is still connected.
    public func willStop() async throws {
        guard !objects.isEmpty else { return }
        try agent.deadvertise(objects.map(\.objectID))
    }

    /// Answers Discovers and Queries until the controller stops (graceful shutdown, cancellation,
    /// or the agent stopped).
    public func run() async throws {
        let responders = responders.withLock { $0 }
        await withGracefulShutdownHandler {
            for responder in responders { await responder.wait() }
        } onGracefulShutdown: {
            for responder in responders { responder.cancel() }
        }
    }

    /// Resolves a Discover with every held object it matches.
    static func resolve(_ request: IncomingRequest<Discover>, from objects: [any CoatyObject], logger: Logger) {
        for object in objects where request.event.matches(object) {
            do {
                try request.respond(Resolve(object: object))
            } catch {
                logger.debug("Resolve not sent", metadata: ["coaty.object": "\(object.objectID)", "error": "\(error)"])
            }
        }
    }

    /// Answers a Query with the held objects it selects, if any.
    static func retrieve(_ request: IncomingRequest<Query>, from objects: [any CoatyObject], logger: Logger) {
        let query = request.event
        let candidates = objects.filter { object in
            switch query.types {
            case .coreTypes(let types): types.contains(object.coreType)
            case .objectTypes(let types): types.contains(object.objectType)
            }
        }
        guard !candidates.isEmpty else { return }
        do {
            let selected = try query.filter.apply(to: candidates) { .object(try $0.jsonObject()) }
            guard !selected.isEmpty else { return }
            try request.respond(Retrieve(objects: selected))
        } catch {
            logger.debug(
                "Query not answered",
                metadata: ["coaty.correlation": "\(request.correlationID ?? "-")", "error": "\(error)"])
        }
    }
}

extension ControllerComponent {
    /// An ``ObjectProviderController`` holding `objects` (and, from a configuration, the objects of
    /// its ``ObjectProviderController/Options``).
    public static func objectProvider(
        name: String = "ObjectProviderController", objects: [any CoatyObject] = []
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            let fromOptions = try ObjectProviderController(context: context)
            return ObjectProviderController(
                agent: context.agent, objects: objects + fromOptions.objects,
                acceptsUpdates: fromOptions.acceptsUpdates, logger: context.logger)
        }
    }
}
