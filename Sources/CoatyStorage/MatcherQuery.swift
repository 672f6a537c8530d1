package import CoreTypes

/// The reference answers of ``StorageReader/find(in:matching:orderedBy:offset:limit:)`` and
/// ``StorageReader/count(in:matching:)`` over objects in insertion order, computed by
/// `ObjectFilter/apply(to:)` and `ObjectMatcher` themselves. The in-memory backend answers with
/// them; a backend that cannot order or match exactly in its database answers with them over a
/// superset of candidates (still in insertion order), which gives the same result.
package enum MatcherQuery {
    /// The objects of `candidates` that match `conditions`, sorted by `ordering` (input order
    /// breaking ties), from sorted position `offset` on, at most `limit` of them.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    package static func find(
        in candidates: [JSONObject], matching conditions: ObjectFilterConditions?, orderedBy ordering: [OrderByProperty],
        offset: Int, limit: Int
    ) throws -> [JSONObject] {
        guard limit > 0 else { return [] }
        let filter = ObjectFilter(conditions: conditions, orderByProperties: ordering, skip: offset, take: limit)
        do {
            return try filter.apply(to: candidates)
        } catch let error as FilterError {
            throw StorageError.filterFailed(error)
        }
    }

    /// How many of `candidates` match `conditions`.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    package static func count(in candidates: [JSONObject], matching conditions: ObjectFilterConditions?) throws -> Int {
        try candidates.count(where: { try matches($0, conditions) })
    }

    /// Whether `object` matches `conditions`.
    ///
    /// - Throws: ``StorageError/filterFailed(_:)`` where the matcher throws.
    package static func matches(_ object: JSONObject, _ conditions: ObjectFilterConditions?) throws -> Bool {
        do {
            return try ObjectMatcher.matches(.object(object), conditions: conditions)
        } catch let error as FilterError {
            throw StorageError.filterFailed(error)
        }
    }
}
