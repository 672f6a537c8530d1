import CoreTypes
import Foundation
import Testing
import TestSupport

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
    /// Every case of `fileName` (optionally only one group) in `folder` (default: the vectors the
    /// tests read), parsed with ``JSONValue``'s parser.
    static func cases(_ fileName: String, group: String? = nil, in folder: URL? = nil) throws -> [VectorCase] {
        try jsonCases(fileName, group: group, in: folder).map(VectorCase.init(json:))
    }
}
