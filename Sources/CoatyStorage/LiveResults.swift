public import CoreTypes

extension ObjectStore {
    /// Watches what `filter` (with `joins`) finds in `collection` while `body` runs: the sequence
    /// yields the current result first, then the new full result each time a write through this
    /// store (or a copy of it) alters it.
    ///
    /// ```swift
    /// try await store.observe(in: "lights", filter: .where("isOn", .equals(true))) { results in
    ///     for try await result in results {
    ///         print(result.objects.map(\.name), "added", result.added.map(\.objectID))
    ///     }
    /// }
    /// ```
    ///
    /// Writes that are committed before the next result is asked for are coalesced into one
    /// result, and a write that leaves the result as it was yields nothing. The query ends when
    /// `body` returns or throws.
    ///
    /// - Throws: What `body` throws; the sequence's iterator throws ``StorageError`` when the
    ///   query cannot be evaluated (a missing collection, a filter that fails).
    public func observe<Result>(
        in collection: String, filter: ObjectFilter = .all, joins: [StorageJoin] = [],
        isolation: isolated (any Actor)? = #isolation, _ body: (LiveResults) async throws -> Result
    ) async throws -> Result {
        let (id, signals) = liveQueries.register(Set([collection] + joins.map(\.collection)))
        defer { liveQueries.unregister(id) }
        return try await body(
            LiveResults(store: self, collection: collection, filter: filter, joins: joins, signals: signals))
    }
}

/// One result of a live query (``ObjectStore/observe(in:filter:joins:isolation:_:)``): the whole
/// result now, and how it differs from the result before (the first from an empty result).
public struct LiveResult: Sendable {
    /// The objects the query finds now, in its order.
    public let objects: [any CoatyObject]
    /// The objects that are new in the result.
    public let added: [any CoatyObject]
    /// The objects that left the result, as they were before.
    public let removed: [any CoatyObject]
    /// The objects still in the result whose content changed, as they are now.
    public let changed: [any CoatyObject]

    /// The change from `old` to `new`, by object id.
    init(from old: [JSONObject], to new: [JSONObject], registry: ObjectTypeRegistry) throws {
        let oldByID = Self.byID(old)
        let newByID = Self.byID(new)
        objects = try new.map(registry.decodeStored)
        added = try new.filter { oldByID[Self.id(of: $0)] == nil }.map(registry.decodeStored)
        removed = try old.filter { newByID[Self.id(of: $0)] == nil }.map(registry.decodeStored)
        changed = try new.filter { object in
            guard let before = oldByID[Self.id(of: object)] else { return false }
            return before != object
        }.map(registry.decodeStored)
    }

    private static func id(of object: JSONObject) -> String {
        object["objectId"]?.stringValue ?? ""
    }

    private static func byID(_ objects: [JSONObject]) -> [String: JSONObject] {
        Dictionary(objects.map { (id(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// The results of a live query, as ``ObjectStore/observe(in:filter:joins:isolation:_:)`` gives
/// them; iterate it from one task. Its iterator ends when the query ends or the task is
/// cancelled, and throws ``StorageError`` when the query cannot be evaluated.
public struct LiveResults: AsyncSequence, Sendable {
    /// A result with its changes.
    public typealias Element = LiveResult

    let store: ObjectStore
    let collection: String
    let filter: ObjectFilter
    let joins: [StorageJoin]
    let signals: AsyncStream<Void>

    /// Evaluates the query, at first and after each signal of a committed write.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let results: LiveResults
        var signals: AsyncStream<Void>.AsyncIterator
        var previous: [JSONObject]?

        /// The current result first, then the next result that differs from the one before;
        /// `nil` once the query has ended.
        public mutating func next() async throws -> LiveResult? {
            while true {
                if previous != nil {
                    guard await signals.next(isolation: #isolation) != nil else { return nil }
                }
                let query = results
                let current = try await query.store.reading { view in
                    try view.all(in: query.collection, filter: query.filter, joins: query.joins)
                }
                if current == previous { continue }
                defer { previous = current }
                return try LiveResult(from: previous ?? [], to: current, registry: query.store.registry)
            }
        }
    }

    /// Starts iterating (one iterator per query).
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(results: self, signals: signals.makeAsyncIterator())
    }
}
