/// A type that decodes itself from a JSON object with coaty-js's checks: every core type
/// (``TaskObject``, ``Log``, …) and every structure nested in one (``GeoLocation``, ``LogHost``, …).
///
/// ```swift
/// let task = try TaskObject(jsonObject: json)   // throws ObjectDecodingError naming the field
/// ```
public protocol JSONObjectDecodable: Sendable {
    /// Decodes and validates `jsonObject` as coaty-js's `CoreTypes.isObject` does for the type;
    /// members the type does not declare go to its `custom` members.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    init(jsonObject: JSONObject) throws(ObjectDecodingError)
}
