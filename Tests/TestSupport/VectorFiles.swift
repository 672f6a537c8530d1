package import CoreTypes
package import Foundation

/// Locates the coaty-js conformance vectors, for every test target.
///
/// Tests read the folder named by `COATY_VECTORS_DIR` when it is set, else the unchanged copy in
/// `Tests/Vectors/`. A missing folder or file is an error, never a skip. Every loader also takes the
/// folder explicitly (`in:`), so that a test can check another set of vectors without changing the
/// process-wide environment that tests running in parallel share.
package enum VectorFiles {
    package struct MissingVectors: Error, CustomStringConvertible {
        package let path: String
        package var description: String {
            "conformance vectors not found at \(path): set COATY_VECTORS_DIR or restore Tests/Vectors"
        }
    }

    /// The folder the vectors are read from.
    package static var directory: URL {
        if let dir = ProcessInfo.processInfo.environment["COATY_VECTORS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir, isDirectory: true)
        }
        // This file is Tests/TestSupport/VectorFiles.swift.
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Vectors", isDirectory: true)
    }

    /// The bytes of one vector file, e.g. `data("sessions.json")`, from `folder` (default ``directory``).
    package static func data(_ fileName: String, in folder: URL? = nil) throws -> Data {
        let url = (folder ?? directory).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw MissingVectors(path: url.path)
        }
        return try Data(contentsOf: url)
    }

    /// Every case of `fileName` (optionally only one group) as JSON, parsed with ``JSONValue``'s parser.
    package static func jsonCases(_ fileName: String, group: String? = nil, in folder: URL? = nil) throws -> [JSONValue] {
        let value = try JSONValue(parsing: data(fileName, in: folder))
        guard let array = value.arrayValue else { throw MissingVectors(path: fileName + " (not an array)") }
        guard let group else { return array }
        return array.filter { $0["group"]?.stringValue == group }
    }
}
