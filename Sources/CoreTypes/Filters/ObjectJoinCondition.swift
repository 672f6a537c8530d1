/// One of a Query's `objectJoinConditions`: asks the responder to resolve the references in
/// `localProperty` of each result object and store the referenced objects in `asProperty`.
///
/// ```json
/// {"localProperty":"locationId","asProperty":"location","isOneToOneRelation":true}
/// ```
///
/// Which related property is matched (usually `objectId`) and where the related objects come from
/// is the responder's decision. With ``isLocalPropertyArray`` each element of the local property is
/// resolved; with ``isOneToOneRelation`` a single object is stored instead of an array (and the
/// property is removed when nothing matches).
public struct ObjectJoinCondition: Hashable, Sendable {
    /// The property of a result object that holds the reference (or references).
    public var localProperty: String
    /// The property of a result object that receives the resolved object(s).
    public var asProperty: String
    /// Whether ``localProperty`` holds an array of references; `nil` is absent on the wire.
    public var isLocalPropertyArray: Bool?
    /// Whether a single object rather than an array is stored; `nil` is absent on the wire.
    public var isOneToOneRelation: Bool?

    /// A join condition.
    public init(
        localProperty: String, asProperty: String, isLocalPropertyArray: Bool? = nil,
        isOneToOneRelation: Bool? = nil
    ) {
        self.localProperty = localProperty
        self.asProperty = asProperty
        self.isLocalPropertyArray = isLocalPropertyArray
        self.isOneToOneRelation = isOneToOneRelation
    }

    /// Decodes one join condition as coaty-js's `areObjectJoinConditionsValid` checks it: an object
    /// with string `localProperty` and `asProperty`, and Boolean flags if present.
    ///
    /// - Throws: ``FilterError`` with code `FilterError.Code.invalidJoinCondition`.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "objectJoinConditions")
    }

    init(json: JSONValue, at location: String) throws {
        guard case .object(let object) = json else {
            throw Self.error(location, "expected an object, found \(json.serializedString())")
        }
        guard case .string(let local)? = object.ownValue(forJavaScriptKey: "localProperty") else {
            throw Self.error(location, "\"localProperty\" must be a string")
        }
        guard case .string(let alias)? = object.ownValue(forJavaScriptKey: "asProperty") else {
            throw Self.error(location, "\"asProperty\" must be a string")
        }
        localProperty = local
        asProperty = alias
        isLocalPropertyArray = try Self.flag(object, "isLocalPropertyArray", at: location)
        isOneToOneRelation = try Self.flag(object, "isOneToOneRelation", at: location)
    }

    /// Decodes the `objectJoinConditions` of a Query: a single join condition or an array of them
    /// (possibly empty).
    ///
    /// - Throws: ``FilterError`` with code `FilterError.Code.invalidJoinCondition`.
    public static func list(json: JSONValue) throws -> [ObjectJoinCondition] {
        guard case .array(let elements) = json else {
            return [try ObjectJoinCondition(json: json)]
        }
        return try elements.enumerated().map { index, element in
            try ObjectJoinCondition(json: element, at: "objectJoinConditions[\(index)]")
        }
    }

    /// The wire form of several join conditions: an array (coaty-js accepts a single object too).
    public static func json(for conditions: [ObjectJoinCondition]) -> JSONValue {
        .array(conditions.map(\.json))
    }

    /// The wire form; absent flags are omitted.
    public var json: JSONValue {
        var object: JSONObject = ["localProperty": .string(localProperty), "asProperty": .string(asProperty)]
        if let isLocalPropertyArray { object["isLocalPropertyArray"] = .bool(isLocalPropertyArray) }
        if let isOneToOneRelation { object["isOneToOneRelation"] = .bool(isOneToOneRelation) }
        return .object(object)
    }

    private static func flag(_ object: JSONObject, _ key: String, at location: String) throws -> Bool? {
        guard let value = object.ownValue(forJavaScriptKey: key) else { return nil }
        guard case .bool(let flag) = value else {
            throw error(location, "\"\(key)\" must be true or false if present, found \(value.serializedString())")
        }
        return flag
    }

    private static func error(_ location: String, _ detail: String) -> FilterError {
        FilterError(code: .invalidJoinCondition, detail: "\(location): \(detail)")
    }
}
