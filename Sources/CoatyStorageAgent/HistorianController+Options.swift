public import CoreTypes

extension HistorianController {
    /// What the historian persists, advertises, snapshots by itself and answers; everything is off
    /// by default, as in coaty-js.
    ///
    /// As container options (JSON) the members have coaty-js's names: `shouldAdvertiseSnapshots`,
    /// `shouldPersistLocalSnapshots`, `shouldPersistObservedSnapshots`, `shouldReplyToQueries`,
    /// `database: {collection}` (its `key` is ignored: the component is given the backend), and
    /// for the snapshots of observed objects, `objectTypes`, `coreTypes` and `tags`.
    public struct Options: Sendable, Hashable, Decodable {
        /// The collection the snapshots are stored in; `"historian"` by default.
        public var collection: String
        /// Whether each snapshot this historian takes is advertised (after it was persisted).
        public var advertisesSnapshots: Bool
        /// Whether each snapshot this historian takes is persisted.
        public var persistsLocalSnapshots: Bool
        /// Whether the snapshots that other agents advertise are persisted.
        public var persistsObservedSnapshots: Bool
        /// Whether Queries for core type `Snapshot` are answered from the store.
        public var answersQueries: Bool
        /// The object types whose objects in observed Advertise, Update and Channel events are
        /// snapshotted (an extension of coaty-js).
        public var observedObjectTypes: Set<String>
        /// The core types whose objects in observed Advertise, Update and Channel events are
        /// snapshotted; `Snapshot` objects never are.
        public var observedCoreTypes: Set<CoreType>
        /// The tags of the snapshots of observed objects.
        public var observedTags: [String]
        /// The longest wait before a snapshot of an observed object is stored again after the
        /// database failed; 5 s by default.
        public var maxRetryDelay: Duration = .seconds(5)

        /// Creates options; with none the historian only takes the snapshots it is asked for.
        public init(
            collection: String = "historian", advertisesSnapshots: Bool = false, persistsLocalSnapshots: Bool = false,
            persistsObservedSnapshots: Bool = false, answersQueries: Bool = false,
            observedObjectTypes: Set<String> = [], observedCoreTypes: Set<CoreType> = [], observedTags: [String] = []
        ) {
            self.collection = collection
            self.advertisesSnapshots = advertisesSnapshots
            self.persistsLocalSnapshots = persistsLocalSnapshots
            self.persistsObservedSnapshots = persistsObservedSnapshots
            self.answersQueries = answersQueries
            self.observedObjectTypes = observedObjectTypes
            self.observedCoreTypes = observedCoreTypes
            self.observedTags = observedTags
        }

        /// Whether an observed `object` is snapshotted.
        public func snapshots(_ object: any CoatyObject) -> Bool {
            object.coreType != .snapshot
                && (observedCoreTypes.contains(object.coreType) || observedObjectTypes.contains(object.objectType))
        }

        /// Whether any observed object is snapshotted at all.
        var snapshotsObservedObjects: Bool {
            !observedObjectTypes.isEmpty || !observedCoreTypes.subtracting([.snapshot]).isEmpty
        }

        private enum CodingKeys: String, CodingKey {
            case database, objectTypes, coreTypes, tags
            case advertisesSnapshots = "shouldAdvertiseSnapshots"
            case persistsLocalSnapshots = "shouldPersistLocalSnapshots"
            case persistsObservedSnapshots = "shouldPersistObservedSnapshots"
            case answersQueries = "shouldReplyToQueries"
        }

        /// coaty-js's `database` option: which database (`key`) and `collection`.
        private struct Database: Decodable {
            var collection: String?
        }

        /// Decodes coaty-js's option names; a missing member keeps its default.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                collection: try container.decodeIfPresent(Database.self, forKey: .database)?.collection ?? "historian",
                advertisesSnapshots: try container.decodeIfPresent(Bool.self, forKey: .advertisesSnapshots) ?? false,
                persistsLocalSnapshots: try container.decodeIfPresent(Bool.self, forKey: .persistsLocalSnapshots)
                    ?? false,
                persistsObservedSnapshots: try container.decodeIfPresent(Bool.self, forKey: .persistsObservedSnapshots)
                    ?? false,
                answersQueries: try container.decodeIfPresent(Bool.self, forKey: .answersQueries) ?? false,
                observedObjectTypes: try container.decodeIfPresent(Set<String>.self, forKey: .objectTypes) ?? [],
                observedCoreTypes: try container.decodeIfPresent(Set<CoreType>.self, forKey: .coreTypes) ?? [],
                observedTags: try container.decodeIfPresent([String].self, forKey: .tags) ?? [])
        }
    }
}
