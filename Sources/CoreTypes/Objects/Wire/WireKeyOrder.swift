/// The member order of the wire object a value was decoded from.
///
/// Core types and their nested structures keep it so that encoding a decoded object writes its
/// members in the order they arrived: decode → encode reproduces the input. It holds the original
/// object (sharing its storage, so keeping it costs no copy). Equality and hashing ignore it: two
/// objects with the same fields are equal whatever order they arrived in.
struct WireKeyOrder: Hashable, Sendable {
    /// The decoded object; `nil` for values created in Swift.
    let source: JSONObject?

    /// No wire order: the value was created in Swift and encodes in its canonical order.
    static let none = WireKeyOrder(source: nil)

    static func == (lhs: WireKeyOrder, rhs: WireKeyOrder) -> Bool { true }
    func hash(into hasher: inout Hasher) {}

    /// Merges a value's own members and its custom members into one object.
    ///
    /// Without a source the result is `head`, then the custom members, then `tail`. With a source,
    /// the members follow the source's key order; members that were not in the source follow in
    /// that same canonical order. A custom member whose key is also one of the value's own members
    /// is not written (the declared field wins).
    func merge(head: JSONObject, custom: JSONObject, tail: JSONObject = JSONObject()) -> JSONObject {
        guard let source else { return Self.canonical(head: head, custom: custom, tail: tail) }
        var result = JSONObject(capacity: head.count + custom.count + tail.count)
        var usedHead = BitSet(count: head.count)
        var usedTail = BitSet(count: tail.count)
        var usedCustom = BitSet(count: custom.count)
        for (key, _) in source {
            if let i = head.position(of: key) {
                if !usedHead[i] { result.appendNew(key, head[i].value) }
                usedHead[i] = true
            } else if let i = tail.position(of: key) {
                if !usedTail[i] { result.appendNew(key, tail[i].value) }
                usedTail[i] = true
            } else if let i = custom.position(of: key) {
                if !usedCustom[i] { result.appendNew(key, custom[i].value) }
                usedCustom[i] = true
            }
        }
        for i in head.indices where !usedHead[i] { result.appendNew(head[i].key, head[i].value) }
        for i in custom.indices where !usedCustom[i] {
            let key = custom[i].key
            if head.position(of: key) == nil && tail.position(of: key) == nil { result.appendNew(key, custom[i].value) }
        }
        for i in tail.indices where !usedTail[i] { result.appendNew(tail[i].key, tail[i].value) }
        return result
    }

    private static func canonical(head: JSONObject, custom: JSONObject, tail: JSONObject) -> JSONObject {
        if custom.isEmpty && tail.isEmpty { return head }
        var result = head
        result.storage.reserveCapacity(head.count + custom.count + tail.count)
        for (key, value) in custom where head.position(of: key) == nil && tail.position(of: key) == nil {
            result.appendNew(key, value)
        }
        for (key, value) in tail { result.appendNew(key, value) }
        return result
    }
}

/// A fixed-size set of flags that needs no allocation for up to 64 of them.
struct BitSet {
    private var small: UInt64 = 0
    private var large: [Bool]

    init(count: Int) {
        large = count > 64 ? Array(repeating: false, count: count) : []
    }

    subscript(index: Int) -> Bool {
        get { large.isEmpty ? small & (1 << UInt64(index)) != 0 : large[index] }
        set {
            if large.isEmpty {
                if newValue { small |= 1 << UInt64(index) } else { small &= ~(1 << UInt64(index)) }
            } else {
                large[index] = newValue
            }
        }
    }
}
