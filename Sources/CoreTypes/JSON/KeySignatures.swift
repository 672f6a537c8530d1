/// Cheap signatures of the keys of an object being read, kept inline (no allocation) for the
/// objects small enough to be searched linearly: equal keys have equal signatures, so a key whose
/// signature is new is new, and most keys are told apart without comparing their bytes.
struct KeySignatures {
    private var slots: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0

    /// How many signatures the slots hold: as many keys as an object keeps without an index
    /// (``JSONObject/indexThreshold``, checked by a test); larger objects use the parser's dictionary.
    static let capacity = MemoryLayout<(UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)>.size / 8

    mutating func append(_ signature: UInt64) {
        precondition(count < Self.capacity, "KeySignatures holds \(Self.capacity) keys")
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: signature, toByteOffset: count * 8, as: UInt64.self) }
        count += 1
    }

    /// Appends the signature of `key` unless it is there already or the slots are full: `false`
    /// then, for a scan that reads only objects whose keys it tells apart by signature alone.
    @inline(__always)
    mutating func appendIfNew(_ key: UnsafeRawBufferPointer) -> Bool {
        let signature = Self.signature(of: key)
        guard count < Self.capacity, firstIndex(of: signature, from: 0) == nil else { return false }
        append(signature)
        return true
    }

    /// The first position at or after `from` whose signature is `signature`.
    func firstIndex(of signature: UInt64, from: Int) -> Int? {
        withUnsafeBytes(of: slots) { raw in
            var i = from
            while i < count {
                if raw.load(fromByteOffset: i * 8, as: UInt64.self) == signature { return i }
                i += 1
            }
            return nil
        }
    }

    /// The signature of a key's UTF-8: its length and its first and last eight bytes (all of it
    /// when shorter).
    @inline(__always)
    static func signature(of utf8: UnsafeRawBufferPointer) -> UInt64 {
        let n = utf8.count
        if n >= 8 {
            let first = utf8.loadUnaligned(as: UInt64.self)
            let last = utf8.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            return (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(n)
        }
        var packed = UInt64(n) << 56
        for i in 0..<n { packed |= UInt64(utf8[i]) << (8 * UInt64(i)) }
        return packed
    }

    static func signature(of key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { signature(of: UnsafeRawBufferPointer($0)) }
    }
}
