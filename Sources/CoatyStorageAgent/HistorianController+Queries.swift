public import Agent
import CoatyStorage
public import CoreTypes

extension HistorianController {
    /// The stored snapshots that `filter` finds, in its order and page (coaty-js's
    /// `findSnapshotsByFilter`).
    ///
    /// - Throws: `StorageError` when the store cannot be read.
    public func snapshots(matching filter: ObjectFilter = .all) async throws -> [Snapshot] {
        try await store.objects(answering: Query(coreTypes: [.snapshot], filter: filter), in: options.collection)
            .compactMap { $0 as? Snapshot }
    }

    /// The stored snapshots of the object with id `parentObjectID` taken from `start` through
    /// `end` (each inclusive, unbounded when `nil`), newest first (`findSnapshotsByParentId`).
    public func snapshots(of parentObjectID: String, from start: Double? = nil, through end: Double? = nil)
        async throws -> [Snapshot]
    {
        try await snapshots(matching: Self.filter(parentObjectID: parentObjectID, from: start, through: end))
    }

    /// The stored snapshots of any object taken from `start` through `end` (each inclusive,
    /// unbounded when `nil`), newest first (`findSnapshotsByTimeFrame`).
    public func snapshots(from start: Double?, through end: Double?) async throws -> [Snapshot] {
        try await snapshots(matching: Self.filter(parentObjectID: nil, from: start, through: end))
    }

    /// Queries the network for the snapshots of the object with id `parentObjectID`, newest
    /// first (`querySnapshotsByParentId`); each historian that answers sends one Retrieve whose
    /// objects are `Snapshot`s.
    ///
    /// - Throws: `AgentError` when the agent stopped.
    public func querySnapshots(
        of parentObjectID: String, from start: Double? = nil, through end: Double? = nil,
        timeout: Duration = .seconds(5)
    ) async throws -> Responses<Retrieve> {
        let filter = Self.filter(parentObjectID: parentObjectID, from: start, through: end)
        return try await agent.query(Query(coreTypes: [.snapshot], filter: filter), timeout: timeout)
    }

    /// Snapshots of the object `parentObjectID` (any object when `nil`) taken from `start` through
    /// `end`, newest first: one condition as it stands, several joined with `and`.
    public static func filter(parentObjectID: String?, from start: Double?, through end: Double?) -> ObjectFilter {
        var conditions: [ObjectFilterCondition] = []
        if let parentObjectID { conditions.append(.init("parentObjectId", .equals(.string(parentObjectID)))) }
        if let start { conditions.append(.init("creationTimestamp", .greaterThanOrEqual(.double(start)))) }
        if let end { conditions.append(.init("creationTimestamp", .lessThanOrEqual(.double(end)))) }
        let filter = conditions.count == 1 ? ObjectFilter(conditions: .condition(conditions[0])) : .allOf(conditions)
        return filter.orderBy("creationTimestamp", .descending)
    }

    /// Answers a Query for core type `Snapshot` with the stored snapshots it finds, also when none.
    func retrieve(_ request: IncomingRequest<Query>) async throws {
        guard case .coreTypes(let coreTypes) = request.event.types, coreTypes.contains(.snapshot) else { return }
        let snapshots = try await store.objects(answering: request.event, in: options.collection)
        try request.respond(Retrieve(objects: snapshots))
    }
}
