import CoatyStorage
import CoreTypes

/// An `ORDER BY` that puts objects in `ObjectFilter/apply(to:)`'s order, insertion order breaking
/// ties, except among strings: per key the type's rank (absent, `null`, Boolean, number, string,
/// array, object), then a Boolean's value (`false` first) or a number's value as a double, then
/// `seq`.
///
/// Strings need the ICU collation, so SQL leaves them in insertion order; every other value
/// lands where the matcher's order puts it, against any other row. So the rows read in this order
/// are exactly the matcher's as long as none of the matching ones read holds a string at a key
/// (``holdsString(_:)``); otherwise the backend orders in Swift. PostgreSQL reads a stored number
/// as a double by correct rounding of its exact decimal value, as JavaScript does (a `-0` is `0`
/// there, which the matcher's order ties with `0` anyway).
struct PostgresOrdering {
    /// The keys, each a plain member path.
    let keys: [OrderByProperty]

    /// `nil` when a key's path is not plain (the matcher's path rules then need Swift).
    init?(_ keys: [OrderByProperty]) {
        guard !keys.isEmpty, keys.allSatisfy({ $0.path.isPlainMemberPath }) else { return nil }
        self.keys = keys
    }

    /// The `ORDER BY` list, paths as bound parameters.
    func sql(_ arguments: inout PostgresArguments) -> String {
        var terms: [String] = []
        for key in keys {
            let member = PostgresDocument.member(key.path.components, &arguments)
            let direction = key.order == .ascending ? "" : " DESC"
            let type = "jsonb_typeof(\(member))"
            terms.append(
                "CASE \(type) WHEN 'null' THEN 1 WHEN 'boolean' THEN 2 WHEN 'number' THEN 3 WHEN 'string' THEN 4 "
                    + "WHEN 'array' THEN 5 WHEN 'object' THEN 6 ELSE 0 END\(direction)")
            terms.append("CASE WHEN \(type) = 'boolean' THEN (\(member))::boolean END\(direction)")
            terms.append("CASE WHEN \(type) = 'number' THEN (\(member))::float8 END\(direction)")
        }
        return (terms + ["seq"]).joined(separator: ", ")
    }

    /// Whether `object` has a string at one of the keys, where SQL's order is not the matcher's.
    func holdsString(_ object: JSONObject) -> Bool {
        keys.contains { key in
            if case .string? = object[pathComponents: key.path.components] { return true }
            return false
        }
    }
}

extension PostgresReading {
    /// The sorted positions `offset ..< offset + limit` of the objects matching `conditions`,
    /// ordered by SQL (see `PostgresOrdering`): an exact pre-filter pages in SQL, an inexact one
    /// reads the candidates in order in growing chunks until enough match. `nil` when a string
    /// at a key among the matches read needs the ICU collation.
    func findInSQLOrder(
        _ condition: String, _ arguments: PostgresArguments, isExact: Bool,
        matching conditions: ObjectFilterConditions?, ordering: PostgresOrdering, offset: Int, limit: Int
    ) throws -> [JSONObject]? {
        let (wanted, overflow) = offset.addingReportingOverflow(limit)
        guard !overflow else { return nil }
        var matches: [JSONObject] = []
        var read = 0
        var chunk = isExact ? limit : max(wanted, 256)
        while true {
            var arguments = arguments
            let order = ordering.sql(&arguments)
            let sql =
                "SELECT data FROM coaty_objects WHERE \(condition) ORDER BY \(order) "
                + "LIMIT \(arguments.integer(chunk)) OFFSET \(arguments.integer(isExact ? offset : read))"
            let rows = try statements.strings(sql, arguments)
            for text in rows {
                let object = try EncodedObject.object(fromStored: text)
                if !isExact, try !MatcherQuery.matches(object, conditions) { continue }
                if ordering.holdsString(object) { return nil }
                matches.append(object)
            }
            if isExact { return matches }
            read += rows.count
            if matches.count >= wanted || rows.count < chunk { return Array(matches.dropFirst(offset).prefix(limit)) }
            chunk = chunk.multipliedReportingOverflow(by: 2).overflow ? chunk : chunk * 2
        }
    }
}
