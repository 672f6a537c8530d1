import CoreTypes

/// The same statements as a backend's, written by hand through the same driver: the baseline
/// each library figure is divided by.
protocol HandWritten: Sendable {
    /// Stores each object in a transaction of its own (what a recorder does per event): the
    /// object's id is read from its text, then it is upserted.
    func insertEach(_ texts: [String], into collection: String) async throws
    /// Stores the objects in one transaction.
    func insertAll(_ texts: [String], into collection: String) async throws
    /// Runs `query` and parses each row's JSON; returns how many rows there were.
    func find(_ query: Workload.Query, in collection: String) async throws -> Int
    /// Counts the objects that are on.
    func countOn(in collection: String) async throws -> Int
}

extension HandWritten {
    /// The id of an object's JSON text, as a hand-written recorder reads it.
    static func objectID(of text: String) throws -> String {
        guard case .object(let object) = try JSONValue(parsing: text), let id = object["objectId"]?.stringValue else {
            throw BenchmarkFailure("an object without objectId: \(text.prefix(80))")
        }
        return id
    }
}

/// What stops a benchmark.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
