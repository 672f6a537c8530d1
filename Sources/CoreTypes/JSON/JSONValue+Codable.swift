/// `JSONValue` works inside any `Codable` type and with any coder.
///
/// With the project's own ``JSONValueDecoder`` and ``JSONValueEncoder`` the value passes through
/// unchanged. With other coders (Foundation's `JSONDecoder`, say) integers and doubles stay apart
/// as far as that coder tells them apart, and object key order is whatever that coder gives.
extension JSONValue: Codable {
    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode(JSONObject.self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Encodes this value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object; the key order is the order the decoder lists its keys in.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var object = JSONObject()
        for key in container.allKeys {
            object[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        self = object
    }

    /// Encodes the members in order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for member in storage {
            try container.encode(member.value, forKey: AnyCodingKey(member.key))
        }
    }
}

/// A coding key for any string (or integer) key.
package struct AnyCodingKey: CodingKey, Hashable, Sendable {
    /// The key's text.
    public let stringValue: String
    /// The key as an array index, when it is one.
    public let intValue: Int?

    /// Creates a key for a string.
    public init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    /// Creates a key for a string.
    public init(stringValue: String) { self.init(stringValue) }

    /// Creates a key for an array index.
    public init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
