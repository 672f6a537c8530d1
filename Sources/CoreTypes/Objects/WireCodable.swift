/// An application object type that reads and writes its wire members itself instead of through
/// `Codable`: for the types an agent sends or receives at high rates.
///
/// A registered type is decoded and encoded with its `Codable` conformance, which costs the
/// generic machinery of `Decoder` and `Encoder` for every member. A `WireCodable` type reads its
/// members from a ``WireReader`` and writes them to a ``WireWriter`` instead; the registry and
/// the events use these whenever the type conforms, and the object on the wire stays the same.
/// What it saves is measured in `docs/performance.md` (B3).
///
/// Everything else is as for any registered type: the object is first checked with coaty-js's
/// rules for its core type, every member the type does not read goes to ``CoatyObject/custom``,
/// and ``CoatyObject/jsonObject()`` writes the base fields and ``CoatyObject/custom`` for you.
/// The `Codable` conformance stays, for uses outside the wire (a type nested in another one).
///
/// ```swift
/// struct Light: CoatyObject {
///     static let coreType = CoreType.coatyObject
///     static let objectType = "com.example.Light"
///     var objectID = ObjectID.make()
///     var name: String
///     var isOn: Bool
///     var luminosity: Double?
///     @CustomFields var custom: JSONObject
/// }
///
/// extension Light: WireCodable {
///     init(wire reader: inout WireReader) throws(ObjectDecodingError) {
///         objectId = try reader.decode(String.self, forKey: "objectId")
///         name = try reader.decode(String.self, forKey: "name")
///         isOn = try reader.decode(Bool.self, forKey: "isOn")
///         luminosity = try reader.decodeIfPresent(Double.self, forKey: "luminosity")
///     }
///
///     func write(to writer: inout WireWriter) throws {
///         writer.encode(isOn, forKey: "isOn")
///         try writer.encodeIfPresent(luminosity, forKey: "luminosity")
///     }
/// }
/// ```
///
/// (The conformance in an extension keeps the struct's memberwise initializer.)
///
/// Read every member the type stores, base fields included (`objectId`, `name`, and the optional
/// ones the type declares); write only the type's own members, since the writer already holds the
/// base fields. Keys are the names on the wire: a ``WireKeyNaming`` strategy does not apply here.
/// A test that decodes and encodes a few objects both ways, with `Codable` and with this
/// conformance, and compares the results keeps the two in step.
public protocol WireCodable: CoatyObject {
    /// Reads the object from an incoming wire object that has passed the checks of its core type.
    ///
    /// - Throws: ``ObjectDecodingError``, as the reader's methods throw it, naming the member.
    init(wire reader: inout WireReader) throws(ObjectDecodingError)

    /// Writes the members this type declares beyond the base fields, which `writer` already holds.
    ///
    /// - Throws: `EncodingError` when a value cannot be written (a `Double` that is not finite, or
    ///   a nested `Encodable` value that fails).
    func write(to writer: inout WireWriter) throws
}

extension WireCodable {
    /// The wire form of this object: the base fields, the members ``write(to:)`` writes, then
    /// ``CoatyObject/custom``'s members that are not already written.
    ///
    /// - Throws: `EncodingError` from ``write(to:)``.
    public func jsonObject() throws -> JSONObject {
        var writer = WireWriter(self)
        try write(to: &writer)
        return writer.finish(custom: custom)
    }
}
