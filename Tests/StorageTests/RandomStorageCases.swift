import CoreTypes
import TestSupport

/// Random objects and filters over a small vocabulary, so conditions often hit, miss, tie and
/// meet missing members. Nothing generated makes the matcher throw (no `hasOwnProperty` or
/// `toString` members, array operands for `In`, no `null` for `Contains`): where the matcher
/// throws, which objects a backend examines first is its own business.
struct RandomStorageCases {
    var random: SeededGenerator
    /// Values are seldom strings, and every filter is ordered: PostgreSQL orders such finds in SQL
    /// until it meets a string at a key.
    var orderedAmongFewStrings = false

    static let keys = ["a", "b", "n", "s", "flag", "nested", "list", "Name", "café"]
    static let strings = [
        "", "a", "A", "b", "B", "ab", "Ab", "aB", "é", "e\u{301}", "É", "z", "10", "9", "a%b", "x_y", "ß", "ss", "日本", "it's",
    ]
    static let paths: [PropertyPath] = [
        "a", "b", "n", "s", "flag", "Name", "café", "nested", "nested.x", "nested.y", "list", "list.0", "list.length",
        "missing", "name", "objectId", "constructor", ["nested", "x"], ["café"],
    ]
    static let likePatterns = ["a%", "%b", "_", "%", "A_", "\\%", "é%", "%\\_%", "a"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ values: [T]) -> T { values[int(0...values.count - 1)] }

    mutating func scalar() -> JSONValue {
        switch int(0...9) {
        case 0: return .null
        case 1: return .bool(chance(50))
        case 2, 3: return .int(int(-3...3))
        case 4:
            // Numbers SQL may read differently from JavaScript: 2^53 + 1 (JavaScript: 2^53),
            // decimal fractions, large and signed zero.
            if chance(20) { return .int(pick([9_007_199_254_740_993, 9_007_199_254_740_992, -9_007_199_254_740_993])) }
            return .double(pick([-1.5, 0.5, 2.0, 2.5, 1e-7, 3.25, 0.1, 0.30000000000000004, 1e21, -0.0]))
        default:
            if orderedAmongFewStrings, !chance(10) { return chance(50) ? .int(int(-3...3)) : .bool(chance(50)) }
            return .string(pick(Self.strings))
        }
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        guard depth < 2 else { return scalar() }
        switch int(0...9) {
        case 0: return .array((0..<int(0...3)).map { _ in value(depth: depth + 1) })
        case 1:
            var object = JSONObject()
            for key in ["x", "y"] where chance(60) { object[key] = value(depth: depth + 1) }
            return .object(object)
        default: return scalar()
        }
    }

    mutating func object(_ index: Int) -> JSONObject {
        var json: JSONObject = [
            "coreType": "CoatyObject", "objectType": "com.example.Item", "objectId": .string("id-\(index)"),
            "name": .string(pick(Self.strings)),
        ]
        if chance(20) { json["externalId"] = .string(pick(["e1", "e2"])) }
        for key in Self.keys where chance(55) {
            switch key {
            case "nested":
                var nested = JSONObject()
                for inner in ["x", "y"] where chance(60) { nested[inner] = value(depth: 1) }
                json[key] = .object(nested)
            case "list": json[key] = .array((0..<int(0...3)).map { _ in scalar() })
            default: json[key] = value()
            }
        }
        return json
    }

    mutating func expression() -> ObjectFilterExpression {
        let op = pick(FilterOperator.allCases)
        switch op {
        case .exists, .notExists: return ObjectFilterExpression(op, operands: [])
        case .between, .notBetween:
            if chance(50) {
                return ObjectFilterExpression(op, operands: [.string(pick(Self.strings)), .string(pick(Self.strings))])
            }
            return ObjectFilterExpression(op, operands: [scalar(), scalar()])
        case .like: return ObjectFilterExpression(op, operands: [.string(pick(Self.likePatterns))])
        case .in, .notIn: return ObjectFilterExpression(op, operands: [.array((0..<int(0...3)).map { _ in scalar() })])
        case .contains, .notContains:
            var operand = value(depth: 1)
            while operand == .null { operand = value(depth: 1) }
            return ObjectFilterExpression(op, operands: [operand])
        default: return ObjectFilterExpression(op, operands: [chance(50) ? .string(pick(Self.strings)) : scalar()])
        }
    }

    mutating func filter() -> ObjectFilter {
        let conditions = (0..<int(0...4)).map { _ in ObjectFilterCondition(pick(Self.paths), expression()) }
        var filter = ObjectFilter()
        switch int(0...4) {
        case 0: filter.conditions = nil
        case 1: filter.conditions = conditions.first.map(ObjectFilterConditions.condition) ?? .empty
        case 2: filter.conditions = .or(conditions)
        default: filter.conditions = .and(conditions)
        }
        if orderedAmongFewStrings || chance(70) {
            filter.orderByProperties = (0..<int(1...2)).map { _ in
                OrderByProperty(pick(Self.paths), chance(50) ? .ascending : .descending)
            }
        }
        if chance(40) { filter.skip = int(-2...5) }
        if chance(50) { filter.take = int(-1...6) }
        return filter
    }
}
