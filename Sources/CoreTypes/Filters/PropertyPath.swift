/// The property a filter condition or an ordering looks at: a top-level name, a nested path, or the
/// object itself.
///
/// On the wire a path is either a string in dot notation (`"location.floor"`, split at every dot)
/// or an array of names (`["props", "with.dot"]`, for names that contain dots). An empty array is
/// the object itself. A path keeps the notation it was created with, so it encodes as it came in.
/// The names are split once, when the path is created, so evaluating a filter does not split
/// strings again.
///
/// ```swift
/// let floor: PropertyPath = "location.floor"          // ["location", "floor"], sent as a string
/// let dotted: PropertyPath = ["props", "with.dot"]    // sent as an array
/// let whole = PropertyPath.object                     // []: the object itself
/// ```
///
/// Resolution follows coaty-js: each name indexes into the current value when it is an object or
/// an array (`"objs.0.id"` and `"arr.length"` work), and the result is absent otherwise (strings
/// have no properties here: `"s.length"` is absent).
public struct PropertyPath: Hashable, Sendable {
    /// The property names, outermost first; empty for the object itself.
    public let components: [String]
    /// Whether the path is written in dot notation (a string) on the wire.
    public let isDotNotation: Bool

    /// A path in dot notation: `"a.b.c"` is `["a", "b", "c"]`. The empty string is a path with one
    /// empty name (coaty-js rejects it in conditions). Like JavaScript's `split(".")`, it splits at
    /// every `.`, even one that a combining mark follows (which Swift counts as one `Character`).
    public init(_ dotNotation: String) {
        components = dotNotation.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { String(Substring($0)) }
        isDotNotation = true
    }

    /// A path in array notation, for names that contain dots; `[]` is the object itself.
    public init(components: [String]) {
        self.components = components
        isDotNotation = false
    }

    /// The object itself (the array notation `[]`).
    public static let object = PropertyPath(components: [])

    /// Decodes a path: a string in dot notation or an array of strings.
    ///
    /// - Throws: ``FilterError`` with code `FilterError.Code.invalidPropertyPath` for anything else.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "path")
    }

    init(json: JSONValue, at location: String) throws {
        switch json {
        case .string(let text):
            self.init(text)
        case .array(let elements):
            var names: [String] = []
            names.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                guard case .string(let name) = element else {
                    throw FilterError(
                        code: .invalidPropertyPath,
                        detail: "\(location)[\(index)]: a property name must be a string, found \(element.typeName)")
                }
                names.append(name)
            }
            self.init(components: names)
        default:
            throw FilterError(
                code: .invalidPropertyPath,
                detail: "\(location): expected a string in dot notation or an array of strings, found \(json.typeName)")
        }
    }

    /// The wire form: a string in dot notation, or an array of strings.
    public var json: JSONValue {
        if isDotNotation { return .string(components.joined(separator: ".")) }
        return .array(components.map(JSONValue.string))
    }
}

extension PropertyPath: ExpressibleByStringLiteral {
    /// A path in dot notation.
    public init(stringLiteral value: String) {
        self.init(value)
    }
}

extension PropertyPath: ExpressibleByArrayLiteral {
    /// A path in array notation.
    public init(arrayLiteral elements: String...) {
        self.init(components: elements)
    }
}

extension PropertyPath: CustomStringConvertible {
    /// The wire form as JSON text.
    public var description: String { json.serializedString() }
}
