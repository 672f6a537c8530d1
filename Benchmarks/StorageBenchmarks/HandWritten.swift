import CoreTypes

/// The same statements as a backend's, written by hand through the same driver: the baseline
/// each library figure is divided by.
protocol HandWritten: Sendable {
    /// Stores each object in a transaction of its own (what a recorder does per event): the
    /// object's id is read from its text, then it is upserted.
    func insertEach(_ texts: [String], into collection: String) async throws
    /// Stores the objects, each an id and its JSON text, in one transaction.
    func insertAll(_ rows: [HandRow], into collection: String) async throws
    /// Runs `query` and parses each row's JSON; returns how many rows there were.
    func find(_ query: Workload.Query, in collection: String) async throws -> Int
    /// Counts the objects that are on.
    func countOn(in collection: String) async throws -> Int
}

/// An object as hand-written code stores it: its id and its JSON text.
struct HandRow: Sendable {
    let id: String
    let text: String

    /// The row of an object's JSON text, its id read from the text (a hand-written recorder or import).
    init(text: String) throws {
        self.init(id: try Self.objectID(of: text), text: text)
    }

    /// The row of a typed object, encoded with the public API (`jsonObject()`, serialized).
    init(object: any CoatyObject) throws {
        self.init(id: object.objectID, text: JSONValue.object(try object.jsonObject()).serializedString())
    }

    init(id: String, text: String) {
        self.id = id
        self.text = text
    }

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
