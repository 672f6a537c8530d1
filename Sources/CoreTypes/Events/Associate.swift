/// Associate (`ASC`): an IO router tells IO sources and actors which route connects them.
///
/// Published on `ASC:<ioContextName>`. With an associating route the source and actor are
/// associated (the source publishes IO values on the route, the actor subscribes to it); without
/// one the association is dissolved. coaty-js never puts `isExternalRoute` on the wire, so it is
/// kept only locally and never sent or expected.
///
/// ```swift
/// let event = Associate(ioContextName: "TemperatureContext", ioSourceID: sourceID, ioActorID: actorID,
///                       associatingRoute: scope.ioRoute(forIoSource: sourceID), updateRate: 500)
/// publish(try event.publication(in: scope))
/// ```
public struct Associate: CoatyEvent {
    /// `.associate`.
    public static let eventType = EventType.associate

    /// The IO context (the topic's event filter).
    public var ioContextName: String
    /// The IO source's object id (non-empty).
    public var ioSourceID: String
    /// The IO actor's object id (non-empty).
    public var ioActorID: String
    /// The route IO values travel on; `nil` dissolves the association.
    public var associatingRoute: String?
    /// Whether the route is an external (non-Coaty) topic; local information, never on the wire.
    public var isExternalRoute: Bool
    /// The recommended interval between IO values in milliseconds, if any.
    public var updateRate: Double?

    /// Associates (with a route) or dissociates (without one) an IO source and an IO actor.
    public init(
        ioContextName: String, ioSourceID: String, ioActorID: String, associatingRoute: String?,
        isExternalRoute: Bool = false, updateRate: Double? = nil
    ) {
        self.ioContextName = ioContextName
        self.ioSourceID = ioSourceID
        self.ioActorID = ioActorID
        self.associatingRoute = associatingRoute
        self.isExternalRoute = isExternalRoute
        self.updateRate = updateRate
    }

    /// Decodes an inbound Associate payload received on IO context `ioContextName`.
    ///
    /// `ioSourceId` and `ioActorId` non-empty strings; `associatingRoute` absent or a non-empty
    /// string; `updateRate` absent or a number. `isExternalRoute` is ignored.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(ioContextName: String, json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let source = try reader.nonEmptyString("ioSourceId") else {
            throw reader.error(.missingMember, "ioSourceId", "an Associate names the IO source")
        }
        guard let actor = try reader.nonEmptyString("ioActorId") else {
            throw reader.error(.missingMember, "ioActorId", "an Associate names the IO actor")
        }
        let route = try reader.nonEmptyString("associatingRoute")
        var rate: Double?
        if let value = reader["updateRate"] {
            guard let number = value.doubleValue else {
                throw reader.error(.invalidMember, "updateRate", "must be a number, found \(value.typeName)")
            }
            rate = number
        }
        self.init(
            ioContextName: ioContextName, ioSourceID: source, ioActorID: actor, associatingRoute: route,
            updateRate: rate)
    }

    /// `{"ioSourceId":…,"ioActorId":…,"associatingRoute":…,"updateRate":…}`; never `isExternalRoute`.
    ///
    /// - Throws: ``EventError`` when an id or the route is empty.
    public func json() throws(EventError) -> JSONValue {
        var writer = PayloadWriter(Self.eventType)
        for (field, value) in [("ioSourceId", ioSourceID), ("ioActorId", ioActorID)] where value.isEmpty {
            throw writer.error(.invalidMember, field, "must not be empty")
        }
        if associatingRoute?.isEmpty == true {
            throw writer.error(.invalidMember, "associatingRoute", "must not be empty; leave it nil to dissociate")
        }
        writer.set("ioSourceId", .string(ioSourceID))
        writer.set("ioActorId", .string(ioActorID))
        writer.set("associatingRoute", associatingRoute.map(JSONValue.string))
        writer.set("updateRate", updateRate.map(JSONValue.double))
        return writer.json
    }

    /// The publication on `coaty/3/<namespace>/ASC:<ioContextName>/<identity>`.
    ///
    /// - Throws: ``EventError`` when the IO context name cannot be a topic level (coaty-js logs
    ///   and drops such events) or the payload is not valid.
    package func publication(in scope: AgentScope) throws(EventError) -> Publication {
        guard CoatyTopic.isValidEventFilter(ioContextName) else {
            throw EventError(
                code: .invalidEventFilter, eventType: Self.eventType, field: "ioContextName",
                detail: "IO context name '\(ioContextName)' must be non-empty and contain no '/', '+', '#' or U+0000")
        }
        return Publication(
            topic: scope.topic(Self.eventType, filter: ioContextName),
            payload: try payload())
    }
}
