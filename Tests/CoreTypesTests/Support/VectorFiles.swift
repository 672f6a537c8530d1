import Foundation
import Testing

/// Locates the coaty-js conformance vectors.
///
/// Tests read the folder named by `COATY_VECTORS_DIR` when it is set, else the unchanged copy in
/// `Tests/Vectors/`. A missing folder or file is an error, never a skip.
enum VectorFiles {
    struct MissingVectors: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "conformance vectors not found at \(path): set COATY_VECTORS_DIR or restore Tests/Vectors"
        }
    }

    /// The folder the vectors are read from.
    static var directory: URL {
        if let dir = ProcessInfo.processInfo.environment["COATY_VECTORS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        // This file is Tests/CoreTypesTests/Support/VectorFiles.swift.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Vectors", isDirectory: true)
    }

    /// The bytes of one vector file, e.g. `data("topics.json")`.
    static func data(_ fileName: String) throws -> Data {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MissingVectors(path: url.path)
        }
        return try Data(contentsOf: url)
    }
}

import CoreTypes

/// One case of a vector file, parsed with the project's own JSON parser.
struct VectorCase: CustomTestStringConvertible, Sendable {
    let json: JSONValue
    var name: String { json["name"]?.stringValue ?? "?" }
    var group: String { json["group"]?.stringValue ?? "?" }
    var input: JSONValue { json["input"] ?? .null }
    var expected: JSONValue { json["expected"] ?? .null }
    var testDescription: String { name }
}

extension VectorFiles {
    /// Every case of `fileName` (optionally only one group), parsed with ``JSONValue``'s parser.
    static func cases(_ fileName: String, group: String? = nil) throws -> [VectorCase] {
        let value = try JSONValue(parsing: data(fileName))
        guard let array = value.arrayValue else { throw MissingVectors(path: fileName + " (not an array)") }
        let all = array.map(VectorCase.init(json:))
        guard let group else { return all }
        return all.filter { $0.group == group }
    }
}
