import CoatyStorage
import CoreTypes

extension ObjectStore {
    /// The objects of `collection` that answer `query`: those of its types that its filter keeps
    /// (ordering and paging included), its join conditions resolved in the same collection.
    func objects(answering query: Query, in collection: String) async throws -> [any CoatyObject] {
        let joins = (query.joinConditions ?? []).map { StorageJoin($0, collection: collection) }
        let types =
            switch query.types {
            case .objectTypes(let types): ObjectFilterCondition("objectType", .in(types.map(JSONValue.string)))
            case .coreTypes(let types): ObjectFilterCondition("coreType", .in(types.map { .string($0.rawValue) }))
            }
        if let filter = query.filter.adding(types) {
            return try await find(in: collection, filter: filter, joins: joins).collect()
        }
        // `or` conditions cannot take the type condition beside them: select the types here, then page.
        var unpaged = query.filter
        (unpaged.skip, unpaged.take) = (nil, nil)
        let found = try await find(in: collection, filter: unpaged, joins: joins).collect()
        let typed = try found.filter { try ObjectMatcher.matches(.object($0.jsonObject()), condition: types) }
        let window = ResultWindow(query.filter)
        let end = min(window.upper ?? typed.count, typed.count)
        return window.lower < end ? Array(typed[window.lower..<end]) : []
    }
}

extension ObjectFilter {
    /// This filter with `condition` added to its conditions, or `nil` when they are `or` conditions.
    func adding(_ condition: ObjectFilterCondition) -> ObjectFilter? {
        var combined = self
        switch conditions {
        case nil, .empty: combined.conditions = .condition(condition)
        case .condition(let other): combined.conditions = .and([condition, other])
        case .and(let others): combined.conditions = .and([condition] + others)
        case .or: return nil
        }
        return combined
    }
}
