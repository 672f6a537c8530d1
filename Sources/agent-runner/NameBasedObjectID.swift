import CoreTypes

/// Object ids for the objects of a `run` configuration that have none: a name-based UUID
/// (RFC 9562 version 5, SHA-1) of the agent's identity name, the object type and the object name,
/// so that a restarted agent gives the same object the same id.
enum NameBasedObjectID {
    /// The namespace of these ids (a fixed random UUID, so they meet no other name-based UUIDs).
    static let namespace: [UInt8] = [
        0x6b, 0x1d, 0x2f, 0x4c, 0x8e, 0x3a, 0x4b, 0x57, 0x9c, 0x0d, 0x5e, 0x7f, 0x21, 0x43, 0x65, 0x87,
    ]

    /// The id of the object named `name` of type `objectType` held by the agent named `identityName`.
    static func make(identityName: String, objectType: String, name: String) -> String {
        // NUL cannot occur in the three texts' meaning, so it separates them unambiguously.
        var hash = SHA1.digest(namespace + Array("\(identityName)\0\(objectType)\0\(name)".utf8))
        hash[6] = (hash[6] & 0x0f) | 0x50
        hash[8] = (hash[8] & 0x3f) | 0x80
        let hex = hash.prefix(16).map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]], as: UTF8.self)
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// Gives each object of `objects` without an `objectId` its name-based id.
    static func filling(_ objects: [JSONValue], identityName: String) -> [JSONValue] {
        objects.map { object in
            guard case .object(var members) = object, members["objectId"] == nil,
                let name = members["name"]?.stringValue, let objectType = members["objectType"]?.stringValue
            else { return object }
            members["objectId"] = .string(make(identityName: identityName, objectType: objectType, name: name))
            return .object(members)
        }
    }
}

/// SHA-1 (FIPS 180-4), only for name-based UUIDs, where RFC 9562 prescribes it.
enum SHA1 {
    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var data = message + [0x80]
        while data.count % 64 != 56 { data.append(0) }
        let bitLength = UInt64(message.count) * 8
        data += (0..<8).reversed().map { UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64($0))) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            var w = (0..<16).map { i in
                (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[chunk + 4 * i + $1]) }
            }
            for i in 16..<80 { w.append((w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotatedLeft(1)) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32) =
                    switch i {
                    case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                    case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                    case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                    default: (b ^ c ^ d, 0xCA62_C1D6)
                    }
                let temp = a.rotatedLeft(5) &+ f &+ e &+ k &+ w[i]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(30), a, temp)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
        }
        return h.flatMap { word in (0..<4).reversed().map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }
}
