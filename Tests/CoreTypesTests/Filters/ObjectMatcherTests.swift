import CoreTypes
import Testing

/// The JavaScript behaviour of coaty-js's matcher that decides which agents answer, pinned one rule
/// at a time (the vectors check the same rules case by case).
@Suite struct ObjectMatcherTests {
    private let object: JSONValue = [
        "name": "Alpha", "n": 42, "nul": nil, "b": true, "s": "hello world", "arr": [1, 2, 3],
        "nested": ["x": 1, "dotted.key": 5], "objs": [["id": 1], ["id": 2]], "mixed": [1, "1", nil, ["a": 1]],
        "pair": ["a", "B"], "pairText": "a,B",
    ]

    private func matches(_ path: PropertyPath, _ expression: ObjectFilterExpression) throws -> Bool {
        try ObjectMatcher.matches(object, condition: ObjectFilterCondition(path, expression))
    }

    @Test(arguments: FilterOperator.allCases)
    func absentPropertyFailsEveryOperatorButNotExists(op: FilterOperator) throws {
        let operands: [JSONValue] = op == .in || op == .notIn ? [[1]] : [1, 2]
        let expression = ObjectFilterExpression(op, operands: Array(operands.prefix(op.operandCount)))
        #expect(try matches("missing", expression) == (op == .notExists))
    }

    @Test func nullCountsAsPresent() throws {
        #expect(try matches("nul", .exists))
        #expect(try !matches("nul", .notExists))
        #expect(try matches("nul", .equals(nil)))
        #expect(try !matches("missing", .equals(nil)))
    }

    @Test func numbersAreEqualByValue() throws {
        #expect(try matches("n", .equals(.double(42.0))))
        #expect(try matches("n", .in([.double(42.0)])))
        #expect(try matches("arr", .contains([.double(3.0)])))
        #expect(try matches("arr", .equals([1.0, 2, 3.0])))
    }

    @Test func pathsReachWhatJavaScriptObjectsInherit() throws {
        for inherited in ["constructor", "hasOwnProperty", "__proto__", "toString", "__proto__.__proto__"] {
            #expect(try matches(PropertyPath(inherited), .exists), "\(inherited)")
        }
        #expect(try matches("arr.length", .equals(3)))
        #expect(try matches("arr.map", .exists))
        #expect(try matches("objs.1.id", .equals(2)))
        #expect(try matches(["objs", "0", "id"], .equals(1)))
        #expect(try !matches("objs.01.id", .exists), "not a canonical array index")
        #expect(try !matches("s.length", .exists), "strings have no properties")
        #expect(try !matches("constructor.name", .exists), "functions have no properties")
        #expect(try !matches("nul.x", .exists))
        #expect(try matches("__proto__", .equals([:])), "Object.prototype has no enumerable keys")
        #expect(try matches(.object, .contains(["name": "Alpha"])))
    }

    @Test func dotNotationSplitsAtEveryDot() throws {
        #expect(try !matches("nested.dotted.key", .exists))
        #expect(try matches(["nested", "dotted.key"], .equals(5)))
        #expect(try !matches("nested..x", .exists))
    }

    @Test func keysCompareByCodeUnitsNotCanonicalEquivalence() throws {
        let precomposed: JSONValue = ["caf\u{E9}": 1]
        let condition = ObjectFilterCondition(["cafe\u{301}"], .exists)
        #expect(try !ObjectMatcher.matches(precomposed, condition: condition))
        #expect(
            try !ObjectMatcher.matches(
                ["s": "caf\u{E9}"], condition: ObjectFilterCondition("s", .equals("cafe\u{301}"))))
    }

    @Test func mixedTypesCompareWithJavaScriptCoercion() throws {
        #expect(try matches("nul", .lessThan(1)), "null is 0")
        #expect(try matches("b", .greaterThan(0.5)), "true is 1")
        #expect(try matches("n", .lessThan("43")), "numeric strings become numbers")
        #expect(try !matches("n", .lessThan("abc")) && !matches("n", .greaterThanOrEqual("abc")), "NaN")
        #expect(try matches("n", .lessThanOrEqual("0x2A")) && matches("n", .greaterThanOrEqual(" 42 ")))
        #expect(try matches("arr", .lessThan("1,3")), "arrays become comma-joined strings, compared by code units")
        #expect(try matches("n", .between("40", "50")))
        #expect(try matches("n", .notBetween(40, nil)), "bounds 40 and null (0) are swapped; 42 > 40")
    }

    @Test func stringsCompareByCollationOnlyWhenBothAreStrings() throws {
        #expect(try matches("name", .greaterThan("alpha")))
        #expect(try matches("name", .lessThan("beta")))
        // The string "a,B" collates after "a,b"; the array ["a", "B"] becomes "a,B", compared by code units.
        #expect(try !matches("pairText", .lessThan("a,b")))
        #expect(try matches("pair", .lessThan("a,b")))
    }

    @Test func likeFollowsJavaScriptRegularExpressions() throws {
        let text: JSONValue = ["t": "Line1\nLine2", "e": "Grüße 😀", "p": "a_b%c\\d", "r": "a.b*c"]
        func like(_ path: PropertyPath, _ pattern: String) throws -> Bool {
            try ObjectMatcher.matches(text, condition: ObjectFilterCondition(path, .like(pattern)))
        }
        #expect(try !like("t", "Line1%"), "no match across a line break")
        #expect(try like("t", "Line1\nLine_"))
        #expect(try !like("e", "Grüße _") && like("e", "Grüße __"), "_ is one UTF-16 code unit")
        #expect(try like("p", "a\\_b\\%c\\\\d") && like("p", "a\\_b%"))
        #expect(try like("r", "a.b*c") && !like("r", "a.bbc") && like("r", "a\\.b*c"))
        #expect(try !like("t", "line%"), "case-sensitive")
        #expect(try like("r", "a.b*c\\"), "a trailing backslash is ignored")
        #expect(try !matches("n", .like("%")), "non-strings never match")
    }

    @Test func containsIsDeepAndEqualityOnStrings() throws {
        #expect(try matches("s", .contains("hello world")) && !matches("s", .contains("hello")))
        #expect(try matches("arr", .contains(2)), "a top-level array contains a primitive")
        #expect(try matches("arr", .contains([3, 1, 3])))
        #expect(try !matches("objs", .contains(["id": 1])), "but not a bare object")
        #expect(try matches("objs", .contains([["id": 1]])))
        #expect(try matches("nested", .contains([])) && matches("nested", .contains([:])))
        #expect(try matches("mixed", .contains([[:]])))
    }

    @Test func inNeedsAnArrayOperand() throws {
        for op in [FilterOperator.in, .notIn] {
            let error = #expect(throws: FilterError.self) {
                try matches("n", ObjectFilterExpression(op, operands: [42]))
            }
            #expect(error?.code == .evaluationFailed)
        }
        #expect(try matches("n", .in([1, 42])) && matches("n", .notIn(["42"])))
    }

    @Test func evaluationThrowsWhereJavaScriptThrows() throws {
        let tricky: JSONValue = ["o": ["hasOwnProperty": 1, "a": 1], "t": ["toString": 1], "k": ["a": 1]]
        let cases: [ObjectFilterCondition] = [
            ObjectFilterCondition("o", .contains(["a": 1])),  // o.hasOwnProperty is not a function
            ObjectFilterCondition("k", .contains(nil)),  // Object.keys(null)
            ObjectFilterCondition("t", .lessThan(1)),  // cannot convert object to primitive
            ObjectFilterCondition("o", .in([["x": 1, "y": 2]])),  // equals calls value.hasOwnProperty
            ObjectFilterCondition("k", .equals(["hasOwnProperty": 1])),  // equals calls operand.hasOwnProperty
        ]
        for condition in cases {
            let error = #expect(throws: FilterError.self, "\(condition)") {
                try ObjectMatcher.matches(tricky, condition: condition)
            }
            #expect(error?.code == .evaluationFailed)
        }
        // Short-circuits keep JavaScript's order: the first element already contains null.
        #expect(try matches("mixed", .contains([nil])))
    }

    @Test func emptyGroupsFollowEveryAndSome() throws {
        #expect(try ObjectMatcher.matches(object, filter: ObjectFilter(conditions: .and([]))))
        #expect(try !ObjectMatcher.matches(object, filter: ObjectFilter(conditions: .or([]))))
        #expect(try ObjectMatcher.matches(object, filter: ObjectFilter(conditions: .empty)))
        #expect(try ObjectMatcher.matches(object, filter: .all))
    }

    @Test func objectOverloadsAgree() throws {
        let filter = ObjectFilter.where("name", .like("Al%")).and("n", .between(40, 50))
        let members = try #require(object.objectValue)
        #expect(try ObjectMatcher.matches(members, filter: filter))
        #expect(try ObjectMatcher.matches(object, filter: filter))
        #expect(try ObjectMatcher.matches(members, filter: ContextFilter(conditions: filter.conditions)))
        #expect(try ObjectMatcher.matches(object, filterJSON: filter.json))
    }

    @Test(arguments: [
        (false, false, true), (false, true, false), (true, false, true),
    ])
    func callDeliveryDependsOnFilterAndContext(hasFilter: Bool, hasContext: Bool, executes: Bool) throws {
        let filter = hasFilter ? ContextFilter.where("floor", .equals(4)) : nil
        let context: JSONValue? = hasContext ? ["floor": 3] : nil
        #expect(try ObjectMatcher.callMatches(context: context, filter: filter) == executes)
    }

    @Test func callWithFilterAndContextExecutesWhenTheContextMatches() throws {
        let context: JSONValue = ["floor": 3, "building": "B1"]
        #expect(try ObjectMatcher.callMatches(context: context, filter: .where("floor", .equals(3))))
        #expect(try !ObjectMatcher.callMatches(context: context, filter: .where("floor", .equals("3"))))
        #expect(try !ObjectMatcher.callMatches(context: context, filter: ContextFilter(conditions: .or([]))))
        #expect(throws: FilterError.self) {
            try ObjectMatcher.callMatches(
                context: context, filter: .where("floor", ObjectFilterExpression(.in, operands: [3])))
        }
    }

    // MARK: - Filters evaluated straight from the wire

    @Test func wireFilterEvaluatesWhatValidationRejects() throws {
        func wire(_ text: String) throws -> Bool {
            try ObjectMatcher.matches(object, filterJSON: JSONValue(parsing: text))
        }
        #expect(try ObjectMatcher.matches(object, filterJSON: nil), "no filter matches everything")
        #expect(throws: FilterError.self) { try ObjectMatcher.matches(object, filterJSON: .null) }
        #expect(try wire(#"{"conditions":{"and":[["n",[7,42]]],"or":[["n",[7,0]]]}}"#), "and wins over or")
        #expect(try !wire(#"{"conditions":["n",[15,1]]}"#), "unknown operator")
        #expect(try !wire(#"{"conditions":["missing",["10"]]}"#), "operator given as a string")
        #expect(try wire(#"{"conditions":["n",[7,42],"extra"]}"#), "extra tuple elements are ignored")
        #expect(try wire(#"{"conditions":[["objs",1,"id"],[7,2]]}"#), "array paths convert keys to strings")
        #expect(try wire(#"{"conditions":{"or":[["n",[7,42]],{"or":[]}]}}"#), "some() stops before the nested group")
        #expect(try wire(#"{"conditions":"anything"}"#) && wire(#"{"conditions":{"and":0}}"#) && wire("5"))
        for text in [
            #"{"conditions":{"and":[{"or":[["n",[7,42]]]}]}}"#, #"{"conditions":[5,[9]]}"#,
            #"{"conditions":{"and":"x"}}"#, #"{"conditions":null}"#, #"{"conditions":["n"]}"#,
            #"{"conditions":{"and":[null]}}"#,
        ] {
            let error = #expect(throws: FilterError.self, "\(text)") { try wire(text) }
            #expect(error?.code == .evaluationFailed)
        }
    }
}
