import CoreTypes
import Testing

/// Result shaping with ``ObjectFilter/apply(to:)``: conditions, then ordering, then skip and take.
/// There are no coaty-js vectors for this part; the rules follow coaty-js's in-memory adapter.
@Suite struct ObjectFilterOrderingTests {
    private func object(_ name: String, _ members: [(String, JSONValue)] = []) -> JSONObject {
        JSONObject([("name", .string(name))] + members)
    }

    private func names(_ objects: [JSONObject]) -> [String] {
        objects.map { $0["name"]?.stringValue ?? "?" }
    }

    @Test func filtersThenOrdersThenSkipsThenTakes() throws {
        let lights = (1...9).map { object("L\($0)", [("on", .bool($0 % 2 == 1)), ("rank", .int(10 - $0))]) }
        let page = try ObjectFilter.where("on", .equals(true)).orderBy("rank").skip(1).take(2).apply(to: lights)
        // On: L1 (rank 9), L3 (7), L5 (5), L7 (3), L9 (1); by rank: L9 L7 L5 L3 L1.
        #expect(names(page) == ["L7", "L5"])
    }

    @Test func withoutSortKeysTheInputOrderStays() throws {
        let objects = ["c", "a", "b"].map { object($0) }
        #expect(names(try ObjectFilter.all.apply(to: objects)) == ["c", "a", "b"])
        #expect(names(try ObjectFilter(orderByProperties: []).apply(to: objects)) == ["c", "a", "b"])
    }

    @Test func stringsSortByCollationNotCodePoints() throws {
        let objects = ["beta", "Alpha", "alpha", "9", "10", "_x", "Ärger"].map { object($0) }
        let sorted = try ObjectFilter.all.orderBy("name").apply(to: objects)
        #expect(names(sorted) == ["_x", "10", "9", "alpha", "Alpha", "Ärger", "beta"])
        let descending = try ObjectFilter.all.orderBy("name", .descending).apply(to: objects)
        #expect(names(descending) == ["beta", "Ärger", "Alpha", "alpha", "9", "10", "_x"])
    }

    @Test func numbersSortNumericallyAndBooleansFalseFirst() throws {
        let numbers =
            [("a", 10), ("b", 2), ("c", -1)].map { object($0.0, [("v", .int($0.1))]) }
            + [object("d", [("v", 2.5)])]
        #expect(names(try ObjectFilter.all.orderBy("v").apply(to: numbers)) == ["c", "b", "d", "a"])
        let flags = [object("t", [("v", true)]), object("f", [("v", false)])]
        #expect(names(try ObjectFilter.all.orderBy("v").apply(to: flags)) == ["f", "t"])
    }

    @Test func absentValuesComeFirstAscendingAndLastDescending() throws {
        let objects = [object("x", [("v", 1)]), object("none"), object("y", [("v", 0)])]
        #expect(names(try ObjectFilter.all.orderBy("v").apply(to: objects)) == ["none", "y", "x"])
        #expect(names(try ObjectFilter.all.orderBy("v", .descending).apply(to: objects)) == ["x", "y", "none"])
    }

    @Test func laterKeysBreakTiesAndFullTiesKeepInputOrder() throws {
        let people = [
            object("p1", [("last", "Smith"), ("age", 40)]), object("p2", [("last", "Jones"), ("age", 30)]),
            object("p3", [("last", "Smith"), ("age", 25)]), object("p4", [("last", "Jones"), ("age", 30)]),
        ]
        let sorted = try ObjectFilter.all.orderBy("last").orderBy("age", .descending).apply(to: people)
        #expect(names(sorted) == ["p2", "p4", "p1", "p3"])
    }

    @Test func nestedPathsInBothNotations() throws {
        let objects = [
            object("b", [("loc", ["floor": 2, "x.y": 1])]), object("a", [("loc", ["floor": 1, "x.y": 2])]),
        ]
        #expect(names(try ObjectFilter.all.orderBy("loc.floor").apply(to: objects)) == ["a", "b"])
        #expect(names(try ObjectFilter.all.orderBy(["loc", "x.y"]).apply(to: objects)) == ["b", "a"])
    }

    /// coaty-js compares values of different types with JavaScript's `<`, which is not a consistent
    /// order (the result of sorting then depends on the sort algorithm). Ordering only shapes one
    /// responder's answer, so Swift uses a fixed order of types instead.
    @Test func mixedTypeSortKeysOrderByTypeNotByJavaScriptCoercion() throws {
        let values: [(String, JSONValue)] = [
            ("object", ["a": 1]), ("string", "1"), ("array", [0]), ("number", 5), ("null", nil), ("bool", true),
        ]
        let objects = values.map { object($0.0, [("v", $0.1)]) } + [object("absent")]
        let sorted = try ObjectFilter.all.orderBy("v").apply(to: objects)
        #expect(names(sorted) == ["absent", "null", "bool", "number", "string", "array", "object"])
    }

    @Test(
        arguments: [
            (nil, nil, ["a", "b", "c", "d"]), (0, 0, ["a", "b", "c", "d"]), (1, nil, ["b", "c", "d"]),
            (nil, 2, ["a", "b"]), (3, 5, ["d"]), (4, 1, []), (9, nil, []), (-1, 2, ["a"]), (nil, -1, []),
        ] as [(Int?, Int?, [String])])
    func pagingKeepsPositionsFromSkipUpToTake(skip: Int?, take: Int?, expected: [String]) throws {
        let objects = ["a", "b", "c", "d"].map { object($0) }
        let filter = ObjectFilter(skip: skip, take: take)
        #expect(names(try filter.apply(to: objects)) == expected)
    }

    @Test func typedElementsAreShapedThroughTheirJSONView() throws {
        struct Light { let label: String; let level: Double }
        let lights = [
            Light(label: "desk", level: 0.8), Light(label: "floor", level: 0.2), Light(label: "wall", level: 0.5),
        ]
        let filter = ObjectFilter.where("level", .greaterThan(0.3)).orderBy("level", .descending)
        let result = try filter.apply(to: lights) { ["name": .string($0.label), "level": .double($0.level)] }
        #expect(result.map(\.label) == ["desk", "wall"])
    }

    @Test func matchingErrorsPropagate() throws {
        let filter = ObjectFilter.where("name", ObjectFilterExpression(.in, operands: ["x"]))
        #expect(throws: FilterError.self) { try filter.apply(to: [object("a")]) }
    }
}
