public import CoreTypes

extension ObjectStore {
    /// The objects of `collection` that `filter` finds, ordered and paged by it, with `joins`
    /// resolved, read from the backend in batches: `batchSize` objects at a time, or by default
    /// 256 at first and twice as many each time up to 2,048 (a short result is one small read, a
    /// long one takes few reads, and memory stays bounded).
    ///
    /// ```swift
    /// let page = ObjectFilter.where("objectType", .equals("com.example.Light")).orderBy("name").take(20)
    /// for try await light in store.find(in: "lights", filter: page) { … }
    /// ```
    ///
    /// Each batch is its own read, or, where the backend streams an unordered find without joins
    /// (PostgreSQL), the whole sequence is one: objects written while the sequence is being read
    /// may shift the later batches (a batch never mixes two states). Read a consistent whole
    /// inside ``transaction(_:)`` with ``StorageTransaction/find(in:filter:joins:)`` instead.
    public func find(
        in collection: String, filter: ObjectFilter = .all, joins: [StorageJoin] = [], batchSize: Int? = nil
    ) -> StoredObjects {
        StoredObjects(store: self, collection: collection, filter: filter, joins: joins, batchSize: batchSize)
    }
}

/// The result of ``ObjectStore/find(in:filter:joins:batchSize:)``: the objects in order, fetched
/// in batches as the sequence is iterated. Its iterator throws ``StorageError`` when a batch
/// cannot be read.
public struct StoredObjects: AsyncSequence, Sendable {
    /// A decoded object: its registered type or its core type.
    public typealias Element = any CoatyObject

    let store: ObjectStore
    let collection: String
    let filter: ObjectFilter
    let joins: [StorageJoin]
    /// `nil`: growing batches.
    let batchSize: Int?

    /// Reads the next batch when the current one is used up.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: JSONBatches
        var buffer: [JSONObject] = []
        var index = 0

        /// The next object, or `nil` after the last.
        public mutating func next() async throws -> (any CoatyObject)? {
            if index == buffer.count {
                guard let batch = try await batches.next() else { return nil }
                (buffer, index) = (batch, 0)
            }
            defer { index += 1 }
            return try batches.store.registry.decodeStored(buffer[index])
        }
    }

    /// Starts reading.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(batches: JSONBatches(self))
    }

    /// Reads every object into an array.
    public func collect() async throws -> [any CoatyObject] {
        var objects: [any CoatyObject] = []
        for try await object in self { objects.append(object) }
        return objects
    }
}

/// The batches of a find as JSON objects, shared by ``StoredObjects`` and aggregation.
struct JSONBatches {
    let store: ObjectStore
    let query: StoredObjects
    let window: ResultWindow
    private var delivered = 0
    private var isFinished = false
    /// Paging by insertion position (unordered finds, where the backend can): the position of the
    /// last object delivered, `nil` before the first batch; `pagesByPosition` turns false once the
    /// backend pages with offsets only.
    private var lastPosition: Int64?
    private var pagesByPosition: Bool
    /// The size of the next batch when none is given: 256, doubling to 2,048.
    private var growingSize = 256
    /// The backend's stream of this find, when it streams it (see ``StreamingBackend``).
    private var stream: (any ObjectStream)?

    init(_ query: StoredObjects) {
        self.query = query
        store = query.store
        window = ResultWindow(query.filter)
        pagesByPosition = query.filter.orderByProperties?.isEmpty ?? true
    }

    /// The next non-empty batch, or `nil` after the last.
    mutating func next() async throws -> [JSONObject]? {
        let size: Int
        if let batchSize = query.batchSize {
            guard batchSize > 0 else {
                throw StorageError(
                    code: .invalidArgument, detail: "batchSize is \(batchSize); read at least 1 object per batch")
            }
            size = batchSize
        } else {
            size = growingSize
            growingSize = min(growingSize * 2, 2048)
        }
        guard !isFinished, let (offset, limit) = window.batch(after: delivered, size: size) else {
            return nil
        }
        if delivered == 0, pagesByPosition, query.joins.isEmpty, let backend = store.backend as? any StreamingBackend {
            let count = window.upper.map { $0 - offset }
            stream = try await backend.stream(
                in: query.collection, matching: query.filter.conditions, offset: offset, limit: count)
        }
        if let stream {
            let batch = try await stream.next(limit)
            delivered += batch.count
            isFinished = batch.count < limit
            return batch.isEmpty ? nil : batch
        }
        let query = query
        let byPosition = pagesByPosition
        // By position, the first batch skips the window's start and later ones continue after the
        // last object; a backend that cannot page so is read by offset in the same read.
        let (after, skip) = delivered == 0 ? (nil, offset) : (lastPosition, 0)
        let (batch, last) = try await store.reading { view -> ([JSONObject], Int64??) in
            if byPosition,
                let paged = try view.batch(
                    in: query.collection, filter: query.filter, joins: query.joins, after: after, offset: skip,
                    limit: limit)
            {
                return (paged.objects, .some(paged.last))
            }
            let objects = try view.batch(
                in: query.collection, filter: query.filter, joins: query.joins, offset: offset, limit: limit)
            return (objects, nil)
        }
        if let last { lastPosition = last } else { pagesByPosition = false }
        delivered += batch.count
        isFinished = batch.count < limit
        return batch.isEmpty ? nil : batch
    }
}
