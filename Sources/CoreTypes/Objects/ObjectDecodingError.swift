/// Why an incoming object could not be decoded.
///
/// The decode chain of ``ObjectTypeRegistry`` and the `init(jsonObject:)` initialisers of the core
/// types throw it. It names the object type and core type the object claimed (when they were
/// readable), the offending field as a dotted path (`geoLocation.coords.latitude`,
/// `ioSources.0.valueType`) and what is wrong with it.
public struct ObjectDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The object's `objectType`, when it had a readable one.
    public let objectType: String?
    /// The object's `coreType`, when it had a readable one.
    public let coreType: String?
    /// The offending field (a dotted path for nested fields), when one field is to blame.
    public let field: String?
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(objectType: String?, coreType: String?, field: String?, reason: String) {
        self.objectType = objectType
        self.coreType = coreType
        self.field = field
        self.reason = reason
    }

    /// One line naming the object type, the core type, the field and the reason.
    public var description: String {
        var text = "cannot decode object"
        if let objectType { text += " of object type '\(objectType)'" }
        if let coreType { text += " (core type '\(coreType)')" }
        if let field { text += ": field '\(field)'" }
        return text + ": " + reason
    }
}
