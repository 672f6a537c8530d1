import CoatyStorage
import CoreTypes
import Foundation
import GRDB
import Synchronization

/// The SQL functions and collations that let SQLite answer exactly as `ObjectMatcher`
/// and `ObjectFilter/apply(to:)` do, by calling the same CoreTypes code:
///
/// - `coaty_match(data, conditions)`: whether the object in `data` matches the conditions (JSON
///   text of an `ObjectFilterConditions`); evaluation errors become SQL errors that
///   the backend turns back into `StorageError.Code.filterFailed`.
/// - `coaty_sort_key(data, path)`: the sort key of the value at `path` (JSON text of a
///   `PropertyPath`), ordered by the collation `coaty_order`.
/// - collation `coaty_order`: sort keys in the order of `ObjectFilter.apply` (absent first, then
///   `null`, Booleans, numbers, strings, arrays, objects; strings by ICU root collation).
/// - collation `coaty_collation`: strings by the ICU root collation, as the matcher compares them.
///
/// Parsed conditions and paths are cached per connection (they are the same for every row).
struct SQLiteFunctions: Sendable {
    /// The marker that starts the message of a filter evaluation error.
    static let filterFailedMarker = "coaty_match: "

    private let conditions = ParseCache<ObjectFilterConditions>()
    private let paths = ParseCache<PropertyPath>()

    /// Adds the functions and collations to a connection.
    func install(in db: Database) {
        db.add(function: DatabaseFunction("coaty_match", argumentCount: 2, pure: true) { [conditions] values in
            let object = try Self.object(values[0])
            let filter = try conditions.value(for: values[1]) { try ObjectFilterConditions(json: $0) }
            do {
                return try ObjectMatcher.matches(object, conditions: filter)
            } catch let error as FilterError {
                throw DatabaseError(message: Self.filterFailedMarker + error.detail)
            }
        })
        db.add(function: DatabaseFunction("coaty_sort_key", argumentCount: 2, pure: true) { [paths] values in
            let object = try Self.object(values[0])
            let path = try paths.value(for: values[1]) { try PropertyPath(json: $0) }
            return ObjectFilter.sortKey(path, in: object)
        })
        db.add(collation: DatabaseCollation("coaty_order") { a, b in
            Self.result(ObjectFilter.compareSortKeys(a, b))
        })
        db.add(collation: DatabaseCollation("coaty_collation") { a, b in
            Self.result(FilterCollation.compare(a, b))
        })
    }

    private static func object(_ value: DatabaseValue) throws -> JSONValue {
        guard let text = String.fromDatabaseValue(value) else {
            throw DatabaseError(message: "coaty: a stored object is not text")
        }
        return try JSONValue(parsing: text)
    }

    private static func result(_ order: Int) -> ComparisonResult {
        order < 0 ? .orderedAscending : (order > 0 ? .orderedDescending : .orderedSame)
    }
}

/// Values parsed from the JSON text of an SQL argument, kept by that text (a few dozen at most:
/// a statement uses the same few for every row).
final class ParseCache<Value: Sendable>: Sendable {
    private let entries = Mutex<[String: Value]>([:])
    private static var capacity: Int { 64 }

    func value(for argument: DatabaseValue, _ parse: (JSONValue) throws -> Value) throws -> Value {
        guard let text = String.fromDatabaseValue(argument) else {
            throw DatabaseError(message: "coaty: a filter argument is not text")
        }
        if let cached = entries.withLock({ $0[text] }) { return cached }
        let value = try parse(try JSONValue(parsing: text))
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[text] = value
        }
        return value
    }
}
