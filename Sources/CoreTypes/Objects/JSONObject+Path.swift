/// Reading and writing nested members by path: dotted paths (`"battery.cells.0.voltage"`) and
/// JSON pointers (RFC 6901, `"/battery/cells/0/voltage"`).
///
/// A path component addresses an object member by name or an array element by index (`0`, `12`;
/// no sign, no leading zeros). Use a pointer, or the component array form, for member names that
/// contain dots; in a pointer `~1` stands for `/` and `~0` for `~`.
///
/// Setting works like JavaScript's `lodash.set`: missing intermediate containers are created (an
/// array when the next component is an index, otherwise an object), and an intermediate that is
/// not a container is replaced. Setting an index past the end of an array pads it with `null`;
/// the pointer component `-` appends. Setting `nil` removes the member (or array element).
///
/// ```swift
/// var custom: JSONObject = ["customAttributeComplex": ["name": "a", "tags": ["x"]]]
/// custom[path: "customAttributeComplex.name"]          // "a"
/// custom[pointer: "/customAttributeComplex/tags/0"]     // "x"
/// custom[path: "battery.level"] = 0.5                  // creates {"battery":{"level":0.5}}
/// ```
extension JSONObject {
    /// The value at a dotted path, such as `"customAttributeComplex.name"` or `"items.0.id"`.
    public subscript(path path: String) -> JSONValue? {
        get { self[pathComponents: JSONPathSyntax.dotted(path)] }
        set { self[pathComponents: JSONPathSyntax.dotted(path)] = newValue }
    }

    /// The value at a JSON pointer (RFC 6901), such as `"/customAttributeComplex/name"`.
    ///
    /// The empty pointer `""` is the whole object: reading it gives `.object(self)`, assigning an
    /// object replaces `self`, assigning `nil` empties it, and assigning any other value does
    /// nothing. A pointer that does not start with `/` addresses nothing: reading gives `nil`,
    /// writing does nothing.
    public subscript(pointer pointer: String) -> JSONValue? {
        get {
            guard let components = JSONPathSyntax.pointer(pointer) else { return nil }
            return self[pathComponents: components]
        }
        set {
            guard let components = JSONPathSyntax.pointer(pointer) else { return }
            var root = JSONValue.object(self)
            root.set(newValue, at: components[...], appendToken: "-")
            self = root.objectValue ?? self
        }
    }

    /// The value at a path given as components (member names and array indices).
    public subscript(pathComponents components: [String]) -> JSONValue? {
        get { JSONValue.object(self).value(at: components[...]) }
        set {
            var root = JSONValue.object(self)
            root.set(newValue, at: components[...], appendToken: nil)
            self = root.objectValue ?? self
        }
    }
}

extension JSONValue {
    /// The value at a dotted path below this value (see ``JSONObject/subscript(path:)``).
    public subscript(path path: String) -> JSONValue? {
        value(at: JSONPathSyntax.dotted(path)[...])
    }

    /// The value at a JSON pointer (RFC 6901) below this value; `""` is the value itself.
    public subscript(pointer pointer: String) -> JSONValue? {
        guard let components = JSONPathSyntax.pointer(pointer) else { return nil }
        return value(at: components[...])
    }

    /// The value at `components` below this one.
    func value(at components: ArraySlice<String>) -> JSONValue? {
        var current = self
        for component in components {
            switch current {
            case .object(let object):
                guard let next = object[component] else { return nil }
                current = next
            case .array(let array):
                guard let index = JSONPathSyntax.index(component), index < array.count else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Sets (or with `nil` removes) the value at `components`, creating containers on the way.
    mutating func set(_ newValue: JSONValue?, at components: ArraySlice<String>, appendToken: String?) {
        guard let first = components.first else {
            if let newValue { self = newValue.objectValue.map(JSONValue.object) ?? self } else { self = .object([:]) }
            return
        }
        let rest = components.dropFirst()
        switch self {
        case .object(var object):
            self = .null  // release the reference so the object below is mutated in place
            if rest.isEmpty {
                object[first] = newValue
            } else if newValue != nil || object[first] != nil {
                var child = object[first] ?? .null
                object[first] = .null
                child.becomeContainer(for: rest.first, appendToken: appendToken)
                child.set(newValue, at: rest, appendToken: appendToken)
                object[first] = child
            }
            self = .object(object)
        case .array(var array):
            let index = first == appendToken ? array.count : JSONPathSyntax.index(first)
            guard let index else { return }
            self = .null
            if rest.isEmpty {
                if let newValue {
                    while array.count < index { array.append(.null) }
                    if index < array.count { array[index] = newValue } else { array.append(newValue) }
                } else if index < array.count {
                    array.remove(at: index)
                }
            } else if newValue != nil || index < array.count {
                while array.count <= index { array.append(.null) }
                var child = array[index]
                array[index] = .null
                child.becomeContainer(for: rest.first, appendToken: appendToken)
                child.set(newValue, at: rest, appendToken: appendToken)
                array[index] = child
            }
            self = .array(array)
        default:
            return
        }
    }

    /// Replaces a non-container with an empty array (when `next` is an index or the append token) or object.
    private mutating func becomeContainer(for next: String?, appendToken: String?) {
        switch self {
        case .object, .array: return
        default:
            let isIndex = next.map { $0 == appendToken || JSONPathSyntax.index($0) != nil } ?? false
            self = isIndex ? .array([]) : .object([:])
        }
    }
}

/// Parsing of dotted paths and JSON pointers.
enum JSONPathSyntax {
    /// The components of a dotted path: split at every `.` byte (a `.` followed by a combining mark
    /// is one Swift `Character`, but still a separator).
    static func dotted(_ path: String) -> [String] {
        path.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { String(Substring($0)) }
    }

    /// The reference tokens of an RFC 6901 pointer, or `nil` when it does not start with `/`.
    ///
    /// Works on bytes: every `/` separates, and in each token `~1` becomes `/` and `~0` becomes `~`
    /// (one pass from the left, which is the same as RFC 6901's "`~1` first, then `~0`").
    static func pointer(_ pointer: String) -> [String]? {
        guard let first = pointer.utf8.first else { return [] }
        guard first == UInt8(ascii: "/") else { return nil }
        return pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map(unescape)
    }

    private static func unescape(_ token: Substring.UTF8View) -> String {
        guard token.contains(UInt8(ascii: "~")) else { return String(Substring(token)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(token.count)
        var escaping = false
        for byte in token {
            if escaping, byte == UInt8(ascii: "1") || byte == UInt8(ascii: "0") {
                bytes.append(byte == UInt8(ascii: "1") ? UInt8(ascii: "/") : UInt8(ascii: "~"))
                escaping = false
                continue
            }
            if escaping { bytes.append(UInt8(ascii: "~")) }
            escaping = byte == UInt8(ascii: "~")
            if !escaping { bytes.append(byte) }
        }
        if escaping { bytes.append(UInt8(ascii: "~")) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The array index a component names: `0` or digits without a leading zero.
    static func index(_ component: String) -> Int? {
        guard let first = component.utf8.first, component.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        if first == 0x30 && component.utf8.count > 1 { return nil }
        return Int(component)
    }
}
