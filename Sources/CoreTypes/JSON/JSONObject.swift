/// A JSON object: string keys mapped to ``JSONValue``s, in the order the keys were first written.
///
/// `JSONObject` reads like a dictionary (`object["name"]`, `object["name"] = "x"`, dictionary
/// literals) but keeps key order, so an object decoded from the wire and encoded again comes out
/// with its members in the same order. Assigning to an existing key keeps its position; assigning
/// `nil` removes the key. Like JavaScript, a duplicate key in parsed text keeps the last value at
/// the position of the first. Keys are told apart by their UTF-8 bytes, as JavaScript tells property
/// names apart: `"\u{E9}"` and `"e\u{301}"` are two keys, although Swift's `==` calls the strings equal.
///
/// Equality and hashing ignore key order: two objects are equal when they have the same keys with
/// equal values.
public struct JSONObject: Sendable {
    /// One member of an object.
    public typealias Element = (key: String, value: JSONValue)

    /// One member as stored. A struct, not the tuple ``Element``: the runtime destroys an array of
    /// tuples through generic tuple metadata, element by element (about a tenth of writing an
    /// Advertise payload went to destroying its object's members so).
    @usableFromInline struct Member: Sendable {
        @usableFromInline var key: String
        @usableFromInline var value: JSONValue

        @inlinable init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline var storage: [Member]
    /// Positions of keys, kept only for larger objects where a linear search would be slow.
    @usableFromInline var index: [ExactKey: Int]?

    @usableFromInline static let indexThreshold = 16

    /// Creates an empty object.
    public init() {
        storage = []
        index = nil
    }

    /// Creates an object from key-value pairs; a repeated key keeps its last value at its first position.
    public init(_ pairs: some Sequence<(String, JSONValue)>) {
        self.init()
        for (key, value) in pairs { self[key] = value }
    }

    /// Creates an object from elements that are known to have distinct keys (used by the parser).
    @usableFromInline init(uniqueElements: [Member]) {
        storage = uniqueElements
        index = nil
        if storage.count > Self.indexThreshold { rebuildIndex() }
    }

    /// The number of members.
    @inlinable public var count: Int { storage.count }

    /// Whether the object has no members.
    @inlinable public var isEmpty: Bool { storage.isEmpty }

    /// The keys in order.
    public var keys: [String] { storage.map(\.key) }

    /// The values in key order.
    public var values: [JSONValue] { storage.map(\.value) }

    /// The position of `key` in ``keys``, or `nil` when the object does not have it.
    @inlinable public func position(of key: String) -> Int? {
        if let index { return index[ExactKey(key)] }
        for i in storage.indices where storage[i].key.hasSameUTF8(as: key) { return i }
        return nil
    }

    /// The position of `key`, looked for first at `hint` (a decoder that reads members in wire
    /// order finds each at the position after the previous one).
    @inlinable func position(of key: String, hint: Int) -> Int? {
        if hint < storage.count, storage[hint].key.hasSameUTF8(as: key) { return hint }
        return position(of: key)
    }

    /// Whether the object has a member named `key` (its value may be `null`).
    @inlinable public func contains(key: String) -> Bool { position(of: key) != nil }

    /// The value for `key`, or `nil` when the key is missing. Setting `nil` removes the key;
    /// setting a value for an existing key keeps its position.
    @inlinable public subscript(key: String) -> JSONValue? {
        get {
            guard let i = position(of: key) else { return nil }
            return storage[i].value
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value for `key`, appending the key if it is new, and returns the old value.
    @inlinable @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let i = position(of: key) {
            let old = storage[i].value
            storage[i].value = value
            return old
        }
        appendNew(key, value)
        return nil
    }

    /// Removes `key` and returns its value, or `nil` if the key was missing.
    @inlinable @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = position(of: key) else { return nil }
        let old = storage.remove(at: i).value
        if index != nil {
            if storage.count > Self.indexThreshold { rebuildIndex() } else { index = nil }
        }
        return old
    }

    /// Inserts `value` for `key` at position `position` (moving the key there if it exists).
    public mutating func insert(_ value: JSONValue, forKey key: String, at position: Int) {
        removeValue(forKey: key)
        insertNew(key, value, at: position)
    }

    /// Appends a member whose key the caller knows is not yet present (decoding and encoding hot
    /// path, and ``updateValue(_:forKey:)`` once it found none).
    @usableFromInline @inline(__always) mutating func appendNew(_ key: String, _ value: JSONValue) {
        storage.append(Member(key: key, value: value))
        if index != nil {
            index?[ExactKey(key)] = storage.count - 1
        } else if storage.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Inserts a member at `position` whose key the caller knows is not yet present.
    mutating func insertNew(_ key: String, _ value: JSONValue, at position: Int) {
        storage.insert(Member(key: key, value: value), at: Swift.min(Swift.max(position, 0), storage.count))
        if index != nil || storage.count > Self.indexThreshold { rebuildIndex() }
    }

    /// Sets every member of `other` in this object, in `other`'s order.
    public mutating func merge(_ other: JSONObject) {
        for member in other.storage { updateValue(member.value, forKey: member.key) }
    }

    @usableFromInline mutating func rebuildIndex() {
        var newIndex = [ExactKey: Int](minimumCapacity: storage.count)
        for (i, element) in storage.enumerated() { newIndex[ExactKey(element.key)] = i }
        index = newIndex
    }
}

/// A member name that compares and hashes by its UTF-8 bytes, as JavaScript compares property names.
///
/// Swift's `String` equality also equates canonically equivalent spellings, which would merge two
/// distinct JSON keys such as `"\u{E9}"` and `"e\u{301}"`.
@usableFromInline struct ExactKey: Hashable, Sendable {
    @usableFromInline let name: String

    @inlinable init(_ name: String) { self.name = name }

    @inlinable static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { lhs.name.hasSameUTF8(as: rhs.name) }

    @inlinable func hash(into hasher: inout Hasher) {
        let hashed: Void? = name.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil { Array(name.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
    }
}

extension String {
    /// Whether both strings have the same UTF-8 bytes (JavaScript's `===`); Swift's `==` also
    /// equates canonically equivalent strings.
    @inlinable func hasSameUTF8(as other: String) -> Bool {
        // Native strings know their UTF-8 length: most different keys differ there already.
        guard utf8.count == other.utf8.count else { return false }
        let compared: Bool?? = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                UnsafeRawBufferPointer(mine).hasSameBytes(as: UnsafeRawBufferPointer(theirs))
            }
        }
        if let compared = compared ?? nil { return compared }
        return utf8.elementsEqual(other.utf8)
    }
}

extension UnsafeRawBufferPointer {
    /// Whether both buffers hold the same bytes, compared eight at a time (they have the same count).
    @inlinable func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard self[offset] == other[offset] else { return false }
            offset += 1
        }
        return true
    }
}

extension JSONObject: RandomAccessCollection {
    /// The position of the first member.
    @inlinable public var startIndex: Int { 0 }
    /// The position after the last member.
    @inlinable public var endIndex: Int { storage.count }
    /// The member at `position`.
    @inlinable public subscript(position: Int) -> Element {
        let member = storage[position]
        return (member.key, member.value)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: Hashable {
    /// Two objects are equal when they have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.storage {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Hashes the members independently of their order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in storage {
            var h = Hasher()
            h.combine(member.key)
            h.combine(member.value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of this object.
    public var description: String { JSONValue.object(self).serializedString() }
}
