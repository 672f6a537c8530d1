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
        let objects = try await store.objects(answering: request.event, in: options.collection)
        guard !objects.isEmpty else { return }
        try request.respond(Retrieve(objects: objects))
    }

    /// The objects whose `member` is one of `values`.
    static func typeFilter(_ member: String, _ values: [String]) -> ObjectFilter {
        ObjectFilter(
            conditions: .condition(
                ObjectFilterCondition(PropertyPath(components: [member]), .in(values.map(JSONValue.string)))))
    }
}
