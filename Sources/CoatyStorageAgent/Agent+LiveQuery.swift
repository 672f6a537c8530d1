public import Agent
public import CoatyStorage
public import CoreTypes

extension Agent {
    /// Publishes `query` and keeps its result set current while `body` runs: the sequence yields
    /// the result now (empty at first), then the new result each time it changes, from the
    /// Retrieves that arrive within `timeout` and, until `body` returns, the Advertise, Update and
    /// Deadvertise events of objects of the query's types.
    ///
    /// ```swift
    /// try await agent.liveQuery(Query(objectTypes: ["com.example.Light"], filter: .where("isOn", .equals(true)))) { results in
    ///     for try await result in results { print(result.objects.map(\.name)) }
    /// }
    /// ```
    ///
    /// The result keeps the objects of the query's types that its filter's conditions select,
    /// in its order; its `skip` and `take` page the Retrieves only (the responders apply them),
    /// and later events add every matching object. Events of this agent itself are left out.
    ///
    /// - Throws: What `body` throws; `AgentError.Code.stopped` when the agent has stopped.
    public func liveQuery<Result: Sendable>(
        _ query: Query, timeout: Duration = .seconds(5), _ body: @Sendable (LiveResults) async throws -> Result
    ) async throws -> Result {
        let store = ObjectStore(backend: InMemoryBackend(), registry: registry)
        let collection = "results"
        try await store.addCollection(collection)
        let events = try await observeAllEvents()
        let responses = try await self.query(query, timeout: timeout)
        let ownID = identity.objectID
        let registry = registry
        let filter = ObjectFilter(
            conditions: query.filter.conditions, orderByProperties: query.filter.orderByProperties)
        return try await store.observe(in: collection, filter: filter) { results in
            // The group ends every task before it returns, so `body` does not outlive this call.
            try await withoutActuallyEscaping(body) { body in
                try await withThrowingTaskGroup(of: Result?.self) { group in
                    group.addTask {
                        for try await response in responses where response.sourceID != ownID {
                            try await store.insert(response.event.objects, into: collection)
                        }
                        return nil
                    }
                    group.addTask {
                        for try await message in events where message.sourceID != ownID {
                            // An invalid payload changes nothing here; the result stays as the valid events made it.
                            guard
                                let change = try? StoreChange(
                                    message, registry: registry, includesChannels: false, accepts: query.admits)
                            else { continue }
                            try await change.apply(to: store, in: collection)
                        }
                        return nil
                    }
                    group.addTask { try await body(results) }
                    defer { group.cancelAll() }
                    while let result = try await group.next() {
                        if let result { return result }
                    }
                    throw AgentError(code: .stopped, detail: "the live query ended before its body returned")
                }
            }
        }
    }
}

extension Query {
    /// Whether `object` is of one of the query's types.
    func admits(_ object: any CoatyObject) -> Bool {
        switch types {
        case .objectTypes(let types): types.contains(object.objectType)
        case .coreTypes(let types): types.contains(object.coreType)
        }
    }
}
