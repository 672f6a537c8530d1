/// One member of a core type or nested structure on the wire: its key, whether coaty-js requires
/// it, how it is read and checked into the Swift value and how it is written back.
///
/// A ``WireSchema`` lists a type's members once; decoding, validation and encoding all follow it.
struct WireMember<Root>: Sendable {
    /// Reads the member into the value being decoded; `false` keeps it in `custom` instead.
    typealias Read = @Sendable (inout Root, JSONValue, WireContext, ObjectTypeRegistry) throws(ObjectDecodingError)
        -> Bool
    /// Appends the member to the wire object when the value has it.
    typealias Write = @Sendable (Root, inout JSONObject) -> Void

    /// The member's name on the wire.
    let key: String
    /// Whether decoding fails when the member is absent.
    let isRequired: Bool
    let read: Read
    let write: Write

    /// A member that must be present, stored in `path`, read by `read` (the value type's rule by default).
    static func required<Value: WireValue>(
        _ key: String, _ path: any WritableKeyPath<Root, Value> & Sendable, _ read: @escaping WireRead<Value> = Value.read
    ) -> WireMember {
        WireMember(
            key: key, isRequired: true, read: storing(read, key, in: path),
            write: { root, object in object.appendNew(key, root[keyPath: path].wireValue) })
    }

    /// A member that may be absent, stored in `path` (`nil` when absent).
    static func optional<Value: WireValue>(
        _ key: String, _ path: any WritableKeyPath<Root, Value?> & Sendable, _ read: @escaping WireRead<Value> = Value.read
    ) -> WireMember {
        WireMember(
            key: key, isRequired: false, read: storing({ value, key, context throws(ObjectDecodingError) in
                try read(value, key, context)
            }, key, in: path),
            write: { root, object in
                if let value = root[keyPath: path] { object.appendNew(key, value.wireValue) }
            })
    }

    /// Reads the member with `read` and stores it in `path`.
    private static func storing<Stored>(
        _ read: @escaping WireRead<Stored>, _ key: String, in path: any WritableKeyPath<Root, Stored> & Sendable
    ) -> Read {
        { root, value, context, _ throws(ObjectDecodingError) in
            root[keyPath: path] = try read(value, key, context)
            return true
        }
    }

    /// A number coaty-js does not check: stored in `path` when it is a number, otherwise kept, as
    /// it arrived, in `custom` (and `path` stays `nil`).
    static func uncheckedNumber(_ key: String, _ path: any WritableKeyPath<Root, Double?> & Sendable) -> WireMember {
        WireMember(
            key: key, isRequired: false,
            read: { root, value, _, _ in
                guard value.isNumber else { return false }
                root[keyPath: path] = value.doubleValue
                return true
            },
            write: { root, object in
                if let value = root[keyPath: path] { object.appendNew(key, .double(value)) }
            })
    }

    /// A member coaty-js checks but does not declare: `check` must accept it, then it is kept in `custom`.
    static func checkedCustom<Value>(_ key: String, _ check: @escaping WireRead<Value>) -> WireMember {
        WireMember(
            key: key, isRequired: false,
            read: { _, value, context, _ throws(ObjectDecodingError) in
                _ = try check(value, key, context)
                return false
            },
            write: { _, _ in })
    }

    /// A member read with the registry (a nested Coaty object) that the type's own `wireObject()` writes.
    static func decodedOnly(_ key: String, isRequired: Bool, _ read: @escaping Read) -> WireMember {
        WireMember(key: key, isRequired: isRequired, read: read, write: { _, _ in })
    }
}
