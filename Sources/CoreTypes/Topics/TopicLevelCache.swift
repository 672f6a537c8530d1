/// The longer topic levels read recently, handed out again when a topic repeats one.
///
/// Strings of up to 15 UTF-8 bytes live inline and cost nothing to make; longer ones (identity
/// ids, object-type filters) are allocated and checked for valid UTF-8 each time. Messages from the
/// same peers repeat the same few levels, so the reader of a stream of topics keeps one cache
/// (it is a value: each reader owns its own) and passes it to ``CoatyTopic/init(parsing:levels:)``.
package struct TopicLevelCache: Sendable {
    private var entries: [String] = []
    private var nextSlot = 0
    private let capacity: Int

    /// A cache that remembers up to `capacity` levels (`0`: none), replacing the oldest first.
    package init(capacity: Int = 8) {
        self.capacity = max(0, capacity)
    }

    /// The string of `bytes`, which must be valid UTF-8 (a level of a topic that is) or are repaired.
    package mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count > 15, capacity > 0 else { return String(decoding: bytes, as: UTF8.self) }
        for entry in entries where entry.utf8.count == bytes.count {
            let isSame = entry.utf8.withContiguousStorageIfAvailable {
                UnsafeRawBufferPointer($0).hasSameBytes(as: UnsafeRawBufferPointer(bytes))
            }
            if isSame == true { return entry }
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if entries.count < capacity {
            entries.append(string)
        } else {
            entries[nextSlot] = string
            nextSlot = (nextSlot + 1) % capacity
        }
        return string
    }
}
