/// Typed reads and writes of nested members, decoding with ``JSONValueDecoder``.
///
/// ```swift
/// let level = try object.custom.value("battery.level", as: Double.self, default: 0)
/// let battery = try object.custom.value("battery", as: Battery.self)       // Battery?
/// try object.custom.setValue(Battery(level: 0.9, charging: false), at: "battery")
/// ```
///
/// A missing member, or one that is `null`, reads as `nil` (or the default); a member of the
/// wrong shape is an error, never silently replaced by the default.
extension JSONObject {
    /// The member at the dotted `path` decoded as `type`, or `nil` when it is missing or `null`.
    ///
    /// - Throws: `DecodingError` whose coding path starts with `path` when the member does not fit `type`.
    public func value<T: Decodable>(_ path: String, as type: T.Type = T.self) throws -> T? {
        let components = JSONPathSyntax.dotted(path)
        guard let member = self[pathComponents: components] else { return nil }
        if member.isNull && T.self != JSONValue.self { return nil }
        return try JSONValueDecoder().decode(type, from: member, codingPath: components.map { AnyCodingKey($0) })
    }

    /// The member at the dotted `path` decoded as `type`, or `defaultValue` when it is missing or `null`.
    ///
    /// - Throws: `DecodingError` whose coding path starts with `path` when the member does not fit `type`.
    public func value<T: Decodable>(_ path: String, as type: T.Type = T.self, default defaultValue: T) throws -> T {
        try value(path, as: type) ?? defaultValue
    }

    /// Encodes `value` with ``JSONValueEncoder`` and stores it at the dotted `path` (see ``subscript(path:)``).
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded.
    public mutating func setValue<T: Encodable>(_ value: T, at path: String) throws {
        self[path: path] = try JSONValueEncoder().encode(value)
    }
}

extension JSONValueDecoder {
    /// Decodes `value` as if it sat at `codingPath`, so errors name the full path.
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, codingPath: [any CodingKey]) throws -> T {
        if let passthrough = JSONValueDecoding.passthrough(value, as: T.self) { return passthrough }
        let decoder = JSONValueDecoding(value: value, keyStrategy: keyStrategy, keepsBaseFieldNames: false)
        decoder.codingPath = codingPath
        return try T(from: decoder)
    }
}
