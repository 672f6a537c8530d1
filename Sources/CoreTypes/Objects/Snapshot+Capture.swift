extension Snapshot {
    /// A snapshot of `object` as coaty-js's `HistorianController` takes one: named
    /// `"<objectType> <name>"` of the object, its parent the object, and written with the members in
    /// the order coaty-js publishes them.
    ///
    /// - Parameters:
    ///   - object: The object to capture; the snapshot holds a copy.
    ///   - creatorID: The id of the agent taking the snapshot (its identity's object id).
    ///   - creationTimestamp: When it was taken, in milliseconds since the Unix epoch; not 0.
    ///   - tags: Tags to find it by later (coaty-js always writes the list, empty or not).
    ///   - objectID: The snapshot's own id; a new one by default.
    public init(
        capturing object: any CoatyObject, creatorID: String, creationTimestamp: Double, tags: [String] = [],
        objectID: String = ObjectID.make()
    ) {
        self.init(
            objectID: objectID, name: "\(object.objectType) \(object.name)", parentObjectID: object.objectID,
            creationTimestamp: creationTimestamp, creatorID: creatorID, object: object, tags: tags)
        wireOrder = WireKeyOrder(source: Self.capturedMemberOrder)
    }

    /// The member order of coaty-js's `generateSnapshot`, which builds the object literal in this order.
    private static let capturedMemberOrder: JSONObject = [
        "objectId": .null, "parentObjectId": .null, "objectType": .null, "coreType": .null, "name": .null,
        "creatorId": .null, "creationTimestamp": .null, "object": .null, "tags": .null,
    ]
}
