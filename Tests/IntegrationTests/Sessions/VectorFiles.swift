import CoreTypes
import Foundation

/// Locates the coaty-js conformance vectors for the integration tests.
///
/// A small duplicate of `Tests/CoreTypesTests/Support/VectorFiles.swift`: test targets cannot see
/// each other's files, and SwiftPM offers no symlink-free way to share one source file. Keep the
/// two in step. Tests read the folder named by `COATY_VECTORS_DIR` when it is set, else the
/// unchanged copy in `Tests/Vectors/`. A missing folder or file is an error, never a skip.
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
        // This file is Tests/IntegrationTests/Sessions/VectorFiles.swift.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Vectors", isDirectory: true)
    }

    /// The bytes of one vector file, e.g. `data("sessions.json")`.
    static func data(_ fileName: String) throws -> Data {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MissingVectors(path: url.path)
        }
        return try Data(contentsOf: url)
    }

    /// Every case of `fileName` (optionally only one group) as JSON, parsed with ``JSONValue``'s parser.
    static func cases(_ fileName: String, group: String? = nil) throws -> [JSONValue] {
        let value = try JSONValue(parsing: data(fileName))
        guard let array = value.arrayValue else { throw MissingVectors(path: fileName + " (not an array)") }
        guard let group else { return array }
        return array.filter { $0["group"]?.stringValue == group }
    }
}
