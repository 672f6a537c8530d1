/// Makes object ids the way Coaty does: RFC 4122 version 4 UUIDs in lowercase.
///
/// Ids are plain `String`s throughout the model because coaty-js accepts any non-empty string as
/// an id and compares ids exactly (case-sensitively); only ids this agent creates are UUIDs.
public enum ObjectID {
    /// A new random lowercase UUID v4, such as `"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"`.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return make(using: &generator)
    }

    /// A new lowercase UUID v4 drawn from `generator` (deterministic generators make tests repeatable).
    public static func make(using generator: inout some RandomNumberGenerator) -> String {
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000  // version 4
        low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000  // RFC 4122 variant
        // Written straight into the string's storage: 32 hex digits and 4 dashes, all ASCII.
        return String(unsafeUninitializedCapacity: 36) { text in
            var index = 0
            func put(_ value: UInt64, digits: Int, from shift: Int) {
                for position in 0..<digits {
                    text[index] = hex(UInt8(truncatingIfNeeded: value >> UInt64(shift - 4 * position)) & 0xF)
                    index += 1
                }
            }
            func dash() {
                text[index] = UInt8(ascii: "-")
                index += 1
            }
            put(high, digits: 8, from: 60)
            dash()
            put(high, digits: 4, from: 28)
            dash()
            put(high, digits: 4, from: 12)
            dash()
            put(low, digits: 4, from: 60)
            dash()
            put(low, digits: 12, from: 44)
            return index
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
