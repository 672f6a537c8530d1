/// Keeps the members of an incoming object that an application type does not declare.
///
/// Declare it on a registered ``CoatyObject`` type as `@CustomFields var custom: JSONObject`.
/// When ``ObjectTypeRegistry`` decodes the type, it fills the property with every member the
/// type's `Decodable` conformance did not read, in wire order; when the object is encoded with
/// ``CoatyObject/jsonObject()``, those members are written back at the top level after the
/// type's own members. The wrapper itself decodes as empty when there is no such member and
/// encodes nothing, with any coder.
///
/// ```swift
/// struct Light: CoatyObject {
///     static let coreType = CoreType.coatyObject
///     static let objectType = "com.example.Light"
///     var objectID = ObjectID.make()
///     var name: String
///     var isOn: Bool
///     @CustomFields var custom: JSONObject
/// }
/// ```
///
/// Without it, a registered type drops the members it does not declare (``CoatyObject/custom``
/// then defaults to an empty object that ignores writes).
@propertyWrapper
public struct CustomFields: Sendable, Hashable, Codable {
    /// The undeclared members, in wire order.
    public var wrappedValue: JSONObject

    /// Creates empty custom fields.
    public init() {
        wrappedValue = JSONObject()
    }

    /// Creates custom fields holding `wrappedValue`.
    public init(wrappedValue: JSONObject) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes as empty: the registry fills the fields after the declared members are decoded.
    public init(from decoder: any Decoder) throws {
        wrappedValue = JSONObject()
    }

    /// Encodes nothing: ``CoatyObject/jsonObject()`` writes the members at the top level instead.
    public func encode(to encoder: any Encoder) throws {}
}

extension KeyedDecodingContainer {
    /// Decodes ``CustomFields`` as empty without looking at the member (it need not exist).
    public func decode(_ type: CustomFields.Type, forKey key: Key) throws -> CustomFields {
        CustomFields()
    }
}

extension KeyedEncodingContainer {
    /// Writes nothing for ``CustomFields``; the registry writes the members at the top level.
    public mutating func encode(_ value: CustomFields, forKey key: Key) throws {}
}
