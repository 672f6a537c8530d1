/// The `objectFilter` of a Query: which objects to retrieve (conditions) and how to shape the result
/// (ordering and paging).
///
/// ```json
/// {"conditions":{"and":[["brightness",[3,0.5]],["name",[6,"Desk%"]]]},
///  "orderByProperties":[["name","Asc"]],"take":10,"skip":0}
/// ```
///
/// Build one with the builders, decode one with ``init(json:)``, match objects with
/// ``ObjectMatcher`` and shape a result with ``apply(to:)``:
///
/// ```swift
/// let filter = ObjectFilter.where("isOn", .equals(true))
///     .and("brightness", .greaterThan(0.5))
///     .orderBy("name")
///     .take(10)
/// let answer = try filter.apply(to: lights)   // [JSONObject]
/// ```
///
/// An empty filter `{}` (``all``) matches every object; coaty-js rejects a Query without any
/// `objectFilter`, so send ``all`` rather than nothing.
public struct ObjectFilter: Hashable, Sendable {
    /// The conditions objects must satisfy; `nil` (absent) matches every object.
    public var conditions: ObjectFilterConditions?
    /// The sort keys, each applied in turn on ties; `nil` is absent on the wire.
    public var orderByProperties: [OrderByProperty]?
    /// How many matching objects to leave out at the start; `nil` is absent on the wire.
    public var skip: Int?
    /// How many objects to return at most; `nil` (absent) and `0` mean no limit.
    public var take: Int?

    /// A filter; every member defaults to absent.
    public init(
        conditions: ObjectFilterConditions? = nil, orderByProperties: [OrderByProperty]? = nil,
        skip: Int? = nil, take: Int? = nil
    ) {
        self.conditions = conditions
        self.orderByProperties = orderByProperties
        self.skip = skip
        self.take = take
    }

    /// The filter `{}`, which matches every object.
    public static let all = ObjectFilter()

    /// Decodes a filter and validates it exactly as coaty-js's `isObjectFilterValid` does, so a
    /// filter that a coaty-js agent would reject is rejected here too.
    ///
    /// The rules: a JSON object; `conditions` (if present) one valid condition or an object with
    /// `and` or `or` (not both) holding arrays of valid conditions; `skip` and `take` numbers;
    /// `orderByProperties` an array of `[path, "Asc" | "Desc"]`. Other members are ignored.
    /// A fractional `skip` or `take` is rounded up (coaty-js's in-memory store effectively does the
    /// same for either alone).
    ///
    /// - Throws: ``FilterError`` naming the first wrong part, e.g.
    ///   `objectFilter.conditions.and[1][1][0]: operator code 15 is not one of the integers 0…14`.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "objectFilter")
    }

    init(json: JSONValue, at location: String) throws {
        guard case .object(let object) = json else {
            throw FilterError(
                code: .invalidFilter,
                detail: "\(location): expected an object, found \(json.serializedString()); send {} for no filter")
        }
        conditions = try object.ownValue(forJavaScriptKey: "conditions").map {
            try ObjectFilterConditions(json: $0, at: "\(location).conditions")
        }
        skip = try Self.count(object, "skip", at: location)
        take = try Self.count(object, "take", at: location)
        if let order = object.ownValue(forJavaScriptKey: "orderByProperties") {
            guard case .array(let entries) = order else {
                throw FilterError(
                    code: .invalidOrderBy,
                    detail: "\(location).orderByProperties: expected an array of [path, \"Asc\" | \"Desc\"], "
                        + "found \(order.serializedString())")
            }
            orderByProperties = try entries.enumerated().map { index, entry in
                try OrderByProperty(json: entry, at: "\(location).orderByProperties[\(index)]")
            }
        } else {
            orderByProperties = nil
        }
    }

    private static func count(_ object: JSONObject, _ key: String, at location: String) throws -> Int? {
        guard let value = object.ownValue(forJavaScriptKey: key) else { return nil }
        guard let number = value.numberValue else {
            throw FilterError(
                code: .invalidFilter,
                detail: "\(location).\(key): expected a number, found \(value.serializedString())")
        }
        if case .int(let exact) = value { return exact }
        let rounded = number.rounded(.up)
        if rounded >= 9.2e18 { return Int.max }
        if rounded <= -9.2e18 { return Int.min }
        return Int(rounded)
    }

    /// The wire form; absent members are omitted, never `null`.
    public var json: JSONValue {
        var object = JSONObject()
        if let conditions { object["conditions"] = conditions.json }
        if let orderByProperties { object["orderByProperties"] = .array(orderByProperties.map(\.json)) }
        if let take { object["take"] = .int(take) }
        if let skip { object["skip"] = .int(skip) }
        return .object(object)
    }
}

extension ObjectFilter: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}
