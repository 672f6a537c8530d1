/// Query (`QRY`): asks other agents for objects of some types that match a filter; answered by
/// ``Retrieve``.
///
/// A Query names exactly one type list, object types or core types, and always carries an
/// object filter: coaty-js 2.4.1 cannot decode a Query without `objectFilter` (it throws), so an
/// empty filter is sent when the application gives none.
///
/// ```swift
/// let query = Query(objectTypes: ["com.example.Light"], filter: try ObjectFilter(json: ["take": 10]))
/// let plan = try query.requestPlan(in: scope, makeCorrelationID: ObjectID.make)
/// ```
public struct Query: RequestEvent {
    /// `.query`.
    public static let eventType = EventType.query

    /// Which types a Query asks for: exactly one of the two lists.
    ///
    /// ```swift
    /// Query(types: .coreTypes([.task]), filter: .all)
    /// ```
    public enum Types: Sendable, Hashable {
        /// Objects whose `objectType` is in the list.
        case objectTypes([String])
        /// Objects whose `coreType` is in the list.
        case coreTypes([CoreType])
    }

    /// The types asked for.
    public var types: Types
    /// The filter the responder applies (conditions, ordering, paging).
    public var filter: ObjectFilter
    /// How the responder joins related objects into the results, if at all.
    ///
    /// coaty-js accepts a single condition or an array on the wire; both decode to this array.
    /// A Query built in Swift sends an array; a decoded Query sends the form it arrived in.
    public var joinConditions: [ObjectJoinCondition]?
    /// Whether a decoded Query had one join condition object rather than an array.
    private var joinConditionWasSingle = false

    /// Queries objects of these object types.
    public init(
        objectTypes: [String], filter: ObjectFilter = ObjectFilter(), joinConditions: [ObjectJoinCondition]? = nil
    ) {
        self.init(types: .objectTypes(objectTypes), filter: filter, joinConditions: joinConditions)
    }

    /// Queries objects of these core types.
    public init(
        coreTypes: [CoreType], filter: ObjectFilter = ObjectFilter(), joinConditions: [ObjectJoinCondition]? = nil
    ) {
        self.init(types: .coreTypes(coreTypes), filter: filter, joinConditions: joinConditions)
    }

    /// Queries objects of `types`.
    public init(types: Types, filter: ObjectFilter = ObjectFilter(), joinConditions: [ObjectJoinCondition]? = nil) {
        self.types = types
        self.filter = filter
        self.joinConditions = joinConditions
    }

    /// The object types asked for, or `nil` when the Query asks for core types.
    public var objectTypes: [String]? {
        if case .objectTypes(let types) = types { return types }
        return nil
    }

    /// The core types asked for, or `nil` when the Query asks for object types.
    public var coreTypes: [CoreType]? {
        if case .coreTypes(let types) = types { return types }
        return nil
    }

    /// Decodes an inbound Query payload.
    ///
    /// Exactly one of `objectTypes` (non-empty strings) and `coreTypes` (core type names);
    /// `objectFilter` present and valid; `objectJoinConditions` absent, one valid condition or an
    /// array of them.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        guard let filterJSON = reader["objectFilter"] else {
            throw reader.error(.missingMember, "objectFilter", "coaty-js requires an objectFilter; send {} at least")
        }
        do {
            filter = try ObjectFilter(json: filterJSON)
        } catch {
            throw reader.error(.invalidMember, "objectFilter", "\(error)")
        }
        (joinConditions, joinConditionWasSingle) = try Self.joinConditions(reader)
        let objectTypes = try reader.stringArray("objectTypes")
        let coreTypes = try reader.coreTypeArray("coreTypes")
        switch (objectTypes, coreTypes) {
        case (let objectTypes?, nil): types = .objectTypes(objectTypes)
        case (nil, let coreTypes?): types = .coreTypes(coreTypes)
        case (.some, .some):
            throw reader.error(.conflictingMembers, "coreTypes", "a Query gives objectTypes or coreTypes, not both")
        case (nil, nil):
            throw reader.error(.missingMember, "objectTypes", "a Query gives objectTypes or coreTypes")
        }
    }

    private static func joinConditions(
        _ reader: PayloadReader
    ) throws(EventError) -> (conditions: [ObjectJoinCondition]?, isSingle: Bool) {
        guard let value = reader["objectJoinConditions"] else { return (nil, false) }
        let elements: [JSONValue]
        var isArray = false
        if case .array(let array) = value {
            elements = array
            isArray = true
        } else {
            elements = [value]
        }
        var conditions: [ObjectJoinCondition] = []
        for (index, element) in elements.enumerated() {
            do {
                conditions.append(try ObjectJoinCondition(json: element))
            } catch {
                throw reader.error(
                    .invalidMember, isArray ? "objectJoinConditions[\(index)]" : "objectJoinConditions", "\(error)")
            }
        }
        return (conditions, !isArray)
    }

    /// `{"objectTypes"|"coreTypes":[…],"objectFilter":{…},"objectJoinConditions":[…]}`.
    ///
    /// - Throws: ``EventError`` when an object type is empty.
    public func json() throws(EventError) -> JSONValue {
        var writer = PayloadWriter(Self.eventType)
        switch types {
        case .objectTypes(let objectTypes):
            for (index, type) in objectTypes.enumerated() where type.isEmpty {
                throw writer.error(.invalidMember, "objectTypes[\(index)]", "object types must not be empty")
            }
            writer.set("objectTypes", objectTypes)
        case .coreTypes(let coreTypes):
            writer.set("coreTypes", coreTypes.map(\.rawValue))
        }
        writer.set("objectFilter", filter.json)
        if let joinConditions {
            if joinConditionWasSingle, joinConditions.count == 1 {
                writer.set("objectJoinConditions", joinConditions[0].json)
            } else {
                writer.set("objectJoinConditions", .array(joinConditions.map(\.json)))
            }
        }
        return writer.json
    }

    /// Checks a Retrieve against this Query, as coaty-js does on both sides: every retrieved
    /// object must be of one of the Query's core types (or object types).
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.responseMismatch` naming the first
    ///   object that does not fit.
    public func check(_ response: Retrieve) throws(EventError) {
        for (index, object) in response.objects.enumerated() {
            switch types {
            case .coreTypes(let coreTypes) where !coreTypes.contains(object.coreType):
                throw EventError(
                    code: .responseMismatch, eventType: .retrieve, field: "objects[\(index)].coreType",
                    detail: "core type '\(object.coreType)' is not among the Query's coreTypes")
            case .objectTypes(let objectTypes)
            where !objectTypes.contains(where: { $0.hasSameUTF8(as: object.objectType) }):
                throw EventError(
                    code: .responseMismatch, eventType: .retrieve, field: "objects[\(index)].objectType",
                    detail: "object type '\(object.objectType)' is not among the Query's objectTypes")
            default: continue
            }
        }
    }

    /// Decodes a Retrieve payload.
    public func decodeResponse(_ json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) -> Retrieve {
        try Retrieve(json: json, registry: registry)
    }

    /// Decodes a Retrieve from its bytes, without a JSON tree when its objects allow it (see
    /// ``RequestEvent/decodeResponse(payload:registry:)``).
    public func decodeResponse(payload: [UInt8], registry: ObjectTypeRegistry) throws(EventError) -> Retrieve {
        try Retrieve.decoded(payload: payload, registry: registry)
    }

    /// One exchange: `coaty/3/<ns>/QRY/<identity>/<id>`, responses on `…/RTV/+/<id>`.
    package func requestPlan(
        in scope: AgentScope, makeCorrelationID: () -> String
    ) throws(EventError) -> RequestPlan {
        let payload = try payload()
        return .single(
            Self.eventType, filter: nil, payload: payload, responseType: Retrieve.eventType, in: scope,
            makeCorrelationID: makeCorrelationID)
    }
}

extension Query: PlannedRequest {}
