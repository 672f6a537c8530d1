import Agent
import CoatyStorage
import CoreTypes

extension StorageRecorderController {
    /// Resolves a Discover with each stored object it matches.
    func resolve(_ request: IncomingRequest<Discover>) async throws {
        let discover = request.event
        let collection = options.collection
        let candidates: [any CoatyObject]
        if let externalID = discover.externalID {
            candidates = try await store.objects(withExternalID: externalID, in: collection)
        } else if let objectID = discover.objectID {
            candidates = try await store.object(withID: objectID, in: collection).map { [$0] } ?? []
        } else if let objectTypes = discover.objectTypes {
            candidates = try await store.find(in: collection, filter: Self.typeFilter("objectType", objectTypes))
                .collect()
        } else if let coreTypes = discover.coreTypes {
            candidates = try await store.find(
                in: collection, filter: Self.typeFilter("coreType", coreTypes.map(\.rawValue))
            )
            .collect()
        } else {
            candidates = []
        }
        for object in candidates where discover.matches(object) {
            try request.respond(Resolve(object: object))
        }
    }

    /// Answers a Query with the stored objects of its types that its filter keeps, its join
    /// conditions resolved in the same collection; nothing when none match.
    func retrieve(_ request: IncomingRequest<Query>) async throws {
        let query = request.event
        let collection = options.collection
        let joins = (query.joinConditions ?? []).map { StorageJoin($0, collection: collection) }
        let types =
            switch query.types {
            case .objectTypes(let types): ObjectFilterCondition("objectType", .in(types.map(JSONValue.string)))
            case .coreTypes(let types): ObjectFilterCondition("coreType", .in(types.map { .string($0.rawValue) }))
            }
        let objects: [any CoatyObject]
        if let filter = Self.filter(query.filter, and: types) {
            objects = try await store.find(in: collection, filter: filter, joins: joins).collect()
        } else {
            // `or` conditions cannot take the type condition beside them: select the types here, then page.
            var unpaged = query.filter
            (unpaged.skip, unpaged.take) = (nil, nil)
            let found = try await store.find(in: collection, filter: unpaged, joins: joins).collect()
            let typed = try found.filter { try ObjectMatcher.matches(.object($0.jsonObject()), condition: types) }
            let window = ResultWindow(query.filter)
            let end = min(window.upper ?? typed.count, typed.count)
            objects = window.lower < end ? Array(typed[window.lower..<end]) : []
        }
        guard !objects.isEmpty else { return }
        try request.respond(Retrieve(objects: objects))
    }

    /// `filter` with `condition` added to its conditions, or `nil` when they are `or` conditions.
    static func filter(_ filter: ObjectFilter, and condition: ObjectFilterCondition) -> ObjectFilter? {
        var combined = filter
        switch filter.conditions {
        case nil, .empty: combined.conditions = .condition(condition)
        case .condition(let other): combined.conditions = .and([condition, other])
        case .and(let others): combined.conditions = .and([condition] + others)
        case .or: return nil
        }
        return combined
    }

    /// The objects whose `member` is one of `values`.
    static func typeFilter(_ member: String, _ values: [String]) -> ObjectFilter {
        ObjectFilter(
            conditions: .condition(
                ObjectFilterCondition(PropertyPath(components: [member]), .in(values.map(JSONValue.string)))))
    }
}
