/// Deadvertise (`DAD`): tells other agents that objects are gone.
///
/// Receivers that track objects also drop every object whose `parentObjectId` is one of the ids,
/// which is why the last will of an agent is a Deadvertise of its identity.
///
/// ```swift
/// publish(try Deadvertise(objectIDs: [lampID]).publication(in: scope))
/// ```
public struct Deadvertise: CoatyEvent {
    /// `.deadvertise`.
    public static let eventType = EventType.deadvertise

    /// The ids of the objects that are gone; each must be non-empty, the list may be empty.
    public var objectIDs: [String]

    /// Deadvertises the objects with these ids.
    public init(objectIDs: [String]) {
        self.objectIDs = objectIDs
    }

    /// Decodes an inbound Deadvertise payload: `objectIds` must be an array of non-empty strings.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let ids = try reader.stringArray("objectIds") else {
            throw reader.error(.missingMember, "objectIds", "a Deadvertise carries an array of object ids")
        }
        objectIDs = ids
    }

    /// `{"objectIds":[…]}`.
    ///
    /// - Throws: ``EventError`` when an id is empty.
    public func json() throws(EventError) -> JSONValue {
        for (index, id) in objectIDs.enumerated() where id.isEmpty {
            throw EventError(
                code: .invalidMember, eventType: Self.eventType, field: "objectIds[\(index)]",
                detail: "object ids must not be empty")
        }
        var writer = PayloadWriter(Self.eventType)
        writer.set("objectIds", objectIDs)
        return writer.json
    }

    /// The publication on `coaty/3/<namespace>/DAD/<identity>`.
    ///
    /// - Throws: ``EventError`` when an id is empty.
    package func publication(in scope: AgentScope) throws(EventError) -> Publication {
        Publication(topic: scope.topic(Self.eventType), payload: try payload())
    }
}
