import CoreTypes
import Logging

/// What the SensorThings controllers share: turning the agent's events into streams of typed
/// SensorThings objects, run as tasks of the controller so they end with it.
struct SensorThingsRelay: Sendable {
    let agent: Agent
    let tasks: ControllerTasks
    let logger: Logger

    /// A relay for a controller of `agent`, with tasks of its own.
    init(agent: Agent, logger: Logger) {
        self.agent = agent
        self.tasks = ControllerTasks()
        self.logger = logger
    }

    /// The elements of `source` that `transform` keeps, as a stream that the controller's tasks feed
    /// until `source` ends, the consumer goes away or the controller stops.
    ///
    /// - Throws: ``AgentError`` with code `AgentError.Code.stopped` when the controller has stopped.
    func relay<Source: AsyncSequence & Sendable, Output: Sendable>(
        _ source: Source, _ transform: @escaping @Sendable (Source.Element) -> Output?
    ) throws -> EventStream<Output> where Source.Element: Sendable {
        let output = agent.makeObserverQueue(of: Output.self)
        let (terminated, terminate) = AsyncStream.makeStream(of: Void.self)
        output.setOnTermination { _ in terminate.finish() }
        let counters = agent.counters
        let added = tasks.add {
            await race(
                {
                    do {
                        for try await element in source {
                            if let next = transform(element) { counters.count(output.yield(next)) }
                        }
                        output.finish()
                    } catch let error as AgentError {
                        output.finish(failure: error)
                    } catch {
                        output.finish()
                    }
                }, until: terminated)
            output.finish()
        }
        guard added else {
            output.finish()
            throw AgentError(code: .stopped, detail: "the controller has stopped; observe before it stops")
        }
        return EventStream(queue: output, pressure: agent.client.readPressure)
    }

    /// `object` as the SensorThings type `T`: itself when it already is one (its object type is
    /// registered), else decoded from its wire form; `nil`, logged at debug, when it is another
    /// object type or does not pass `T`'s checks.
    func typed<T: CoatyObject>(_ object: any CoatyObject, as type: T.Type) -> T? {
        if let typed = object as? T { return typed }
        guard object.objectType == T.objectType else { return nil }
        do {
            return try agent.registry.decodeObject(object.jsonObject(), as: T.self)
        } catch {
            logger.debug(
                "SensorThings object dropped",
                metadata: ["coaty.objectType": "\(T.objectType)", "coaty.object": "\(object.objectID)", "error": "\(error)"])
            return nil
        }
    }

    /// Advertised objects of `T`'s object type that satisfy `isIncluded`.
    func advertised<T: CoatyObject>(
        _ type: T.Type, where isIncluded: @escaping @Sendable (T) -> Bool = { _ in true }
    ) async throws -> EventStream<T> {
        let events = try await agent.observeAdvertise(objectType: T.objectType)
        return try relay(events) { received in typed(received.event.object, as: T.self).flatMap { isIncluded($0) ? $0 : nil } }
    }

    /// The objects of `T`'s object type that a Discover by that type resolves until `timeout`.
    func discover<T: CoatyObject>(_ type: T.Type, timeout: Duration) async throws -> EventStream<T> {
        let responses = try await agent.discover(Discover(objectTypes: [T.objectType]), timeout: timeout)
        return try relay(responses) { received in received.event.object.flatMap { typed($0, as: T.self) } }
    }

    /// The objects of `T`'s object type in each Retrieve of a Query by that type with `filter`, until `timeout`.
    func query<T: CoatyObject>(_ type: T.Type, filter: ObjectFilter, timeout: Duration) async throws -> EventStream<[T]> {
        let responses = try await agent.query(Query(objectTypes: [T.objectType], filter: filter), timeout: timeout)
        return try relay(responses) { received in received.event.objects.compactMap { typed($0, as: T.self) } }
    }
}

/// An observer controller that works through a ``SensorThingsRelay``, whose tasks are its own.
protocol SensorThingsObserving: TaskRunningController {
    var relay: SensorThingsRelay { get }
}

extension SensorThingsObserving {
    var tasks: ControllerTasks { relay.tasks }
}
