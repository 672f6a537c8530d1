public import CoreTypes
import FoundationEssentials

/// The conformance vectors (Tests/Vectors/*.json), parsed, for building seed corpora.
public struct Vectors: Sendable {
    /// Every case of every vector file, by file name (`"topics.json"`).
    public let files: [String: [JSONValue]]

    /// Reads `topics.json`, `objects.json`, `events.json`, `matcher.json` and `sessions.json` from `directory`.
    public init(directory: String) throws {
        var files: [String: [JSONValue]] = [:]
        for name in ["topics.json", "objects.json", "events.json", "matcher.json", "sessions.json"] {
            let data = try Data(contentsOf: URL(filePath: directory).appending(path: name))
            guard case .array(let cases) = try JSONValue(parsing: Array(data)) else {
                throw SeedError(description: "\(name) is not a JSON array of cases")
            }
            files[name] = cases
        }
        self.files = files
    }

    /// The cases of one file (empty for a file that was not read).
    public func cases(_ file: String) -> [JSONValue] { files[file] ?? [] }

    /// Every value stored under one of `keys`, anywhere in the cases of `files` (all files by default).
    public func values(forKeys keys: Set<String>, in files: [String]? = nil) -> [JSONValue] {
        var found: [JSONValue] = []
        for file in files ?? self.files.keys.sorted() {
            for value in cases(file) { Self.collect(value, keys, into: &found) }
        }
        return found
    }

    /// Every string stored under one of `keys`.
    public func strings(forKeys keys: Set<String>, in files: [String]? = nil) -> [String] {
        values(forKeys: keys, in: files).compactMap(\.stringValue)
    }

    /// Every JSON object anywhere in `files` that names a `coreType`: the Coaty objects of the vectors.
    public func coatyObjects(in files: [String]? = nil) -> [JSONObject] {
        var found: [JSONObject] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let object):
                if object["coreType"]?.stringValue != nil { found.append(object) }
                for member in object.values { walk(member) }
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        for file in files ?? self.files.keys.sorted() { cases(file).forEach(walk) }
        return found
    }

    /// The bytes of the hex strings stored under one of `keys` (`payloadHex`).
    public func hexBytes(forKeys keys: Set<String>, in files: [String]? = nil) -> [[UInt8]] {
        strings(forKeys: keys, in: files).compactMap(Self.bytes(hex:))
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func collect(_ value: JSONValue, _ keys: Set<String>, into found: inout [JSONValue]) {
        switch value {
        case .object(let object):
            for (key, member) in object {
                if keys.contains(key) { found.append(member) }
                collect(member, keys, into: &found)
            }
        case .array(let elements):
            for element in elements { collect(element, keys, into: &found) }
        default: break
        }
    }
}

/// A seed corpus could not be built.
public struct SeedError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}

/// Writes seed inputs as files named after a hash of their content (so duplicates collapse).
enum SeedWriter {
    static func write(_ seeds: [[UInt8]], to directory: String) throws -> Int {
        let url = URL(filePath: directory, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var names = Set<String>()
        for seed in seeds {
            let name = "seed-" + hash(seed)
            guard names.insert(name).inserted else { continue }
            try Data(seed).write(to: url.appending(path: name))
        }
        return names.count
    }

    /// FNV-1a, 64 bits, in hex.
    private static func hash(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension JSONValue {
    /// The compact JSON text, as seed bytes.
    public var seed: [UInt8] { serialized() }
}

extension String {
    /// The UTF-8 bytes, as a seed.
    public var seed: [UInt8] { Array(utf8) }
}
