import CoreTypes
import Testing

/// The wire forms of filters, conditions, orderings and join conditions, and the validation that
/// coaty-js applies to them.
@Suite struct FilterWireTests {
    /// The examples of the protocol document (§4.5, §4.7, §8.1) and other valid shapes decode and
    /// encode to the same bytes (members in the order conditions, orderByProperties, take, skip).
    @Test(arguments: [
        #"{"conditions":["name",[7,"Desk lamp"]]}"#,
        #"{"conditions":{"and":[["brightness",[4,0.2,0.9]],["location.floor",[13,[1,2]]]]}}"#,
        #"{"conditions":{"or":[[["props","with.dot"],[9]],["tags",[11,["red"]]]]},"orderByProperties":[["name","Desc"]],"take":10,"skip":20}"#,
        #"{"conditions":{"and":[["brightness",[3,0.5]],["name",[6,"Desk%"]]]},"orderByProperties":[["name","Asc"]],"take":10,"skip":0}"#,
        #"{"conditions":{}}"#, "{}", #"{"conditions":[[],[9]]}"#, #"{"conditions":["n",[5,1]]}"#,
        #"{"conditions":["n",[7,1,2,3]]}"#,
    ])
    func objectFilterRoundTripsByteForByte(text: String) throws {
        let filter = try ObjectFilter(json: JSONValue(parsing: text))
        #expect(filter.json.serializedString() == text)
        #expect(try ObjectFilter(json: filter.json) == filter)
    }

    @Test func absentMembersAreOmittedNotNull() throws {
        #expect(ObjectFilter().json.serializedString() == "{}")
        #expect(ObjectFilter.all.skip(0).json.serializedString() == #"{"skip":0}"#)
        #expect(ContextFilter().json.serializedString() == "{}")
        let join = ObjectJoinCondition(localProperty: "locationId", asProperty: "location")
        #expect(join.json.serializedString() == #"{"localProperty":"locationId","asProperty":"location"}"#)
    }

    @Test func decodedFilterExposesItsParts() throws {
        let text =
            #"{"conditions":{"or":[[["props","with.dot"],[9]],["tags",[11,["red"]]]]},"orderByProperties":[["name","Desc"]],"skip":20,"take":10}"#
        let filter = try ObjectFilter(json: JSONValue(parsing: text))
        guard case .or(let conditions)? = filter.conditions else {
            Issue.record("expected an or group, found \(String(describing: filter.conditions))")
            return
        }
        #expect(conditions.count == 2)
        #expect(conditions[0].path.components == ["props", "with.dot"])
        #expect(conditions[0].expression.operator == .exists)
        #expect(conditions[1].expression == .contains(["red"]))
        #expect(filter.orderByProperties == [OrderByProperty("name", .descending)])
        #expect(filter.skip == 20 && filter.take == 10)
    }

    @Test func propertyPathsKeepTheirNotation() throws {
        let dotted = try PropertyPath(json: "location.floor")
        #expect(dotted.components == ["location", "floor"] && dotted.json == "location.floor")
        let array = try PropertyPath(json: ["location.floor"])
        #expect(array.components == ["location.floor"] && array.json == ["location.floor"])
        #expect(dotted != array)
        #expect(PropertyPath.object.json == [] && PropertyPath.object.components.isEmpty)
        #expect(PropertyPath("a..b").components == ["a", "", "b"])
        #expect(PropertyPath("").components == [""])
        let literal: PropertyPath = ["a", "b"]
        #expect(literal.json == ["a", "b"])
    }

    @Test(arguments: FilterOperator.allCases)
    func operatorsUseTheirCoatyCodes(op: FilterOperator) throws {
        let names = [
            "LessThan", "LessThanOrEqual", "GreaterThan", "GreaterThanOrEqual", "Between", "NotBetween", "Like",
            "Equals", "NotEquals", "Exists", "NotExists", "Contains", "NotContains", "In", "NotIn",
        ]
        #expect(op.name == names[op.code])
        #expect(FilterOperator(code: op.code) == op)
        let expression = try ObjectFilterExpression(json: [.int(op.code), 1, 2])
        #expect(expression.operator == op && expression.operands == [1, 2])
    }

    @Test func operatorCodesAreIntegersAsJavaScriptCompares() throws {
        #expect(try ObjectFilterExpression(json: [7.0, 1]).operator == .equals)
        #expect(FilterOperator(code: 15) == nil)
        for bad: JSONValue in [[15], [-1], ["7"], [nil], [7.5], [], 7] {
            #expect(throws: FilterError.self, "\(bad)") { try ObjectFilterExpression(json: bad) }
        }
    }

    @Test func orderByUsesAscAndDesc() throws {
        #expect(OrderByProperty("name").json == ["name", "Asc"])
        #expect(OrderByProperty(["a.b"], .descending).json == [["a.b"], "Desc"])
        #expect(try OrderByProperty(json: ["", "Desc"]).order == .descending)
        for bad: JSONValue in [["name", "asc"], ["name"], [5, "Asc"], ["name", "Asc", 1], "name"] {
            let error = #expect(throws: FilterError.self, "\(bad)") { try OrderByProperty(json: bad) }
            #expect(error?.code == .invalidOrderBy)
        }
    }

    @Test func joinConditionsRoundTripAndValidate() throws {
        let text = #"{"localProperty":"locationId","asProperty":"location","isOneToOneRelation":true}"#
        let join = try ObjectJoinCondition(json: JSONValue(parsing: text))
        #expect(
            join == ObjectJoinCondition(localProperty: "locationId", asProperty: "location", isOneToOneRelation: true))
        #expect(join.json.serializedString() == text)
        #expect(try ObjectJoinCondition.list(json: JSONValue(parsing: text)) == [join])
        #expect(try ObjectJoinCondition.list(json: [join.json, join.json]).count == 2)
        #expect(try ObjectJoinCondition.list(json: []).isEmpty)
        #expect(ObjectJoinCondition.json(for: [join]) == [join.json])
        for bad in [
            #"{"asProperty":"x"}"#, #"{"localProperty":1,"asProperty":"x"}"#,
            #"{"localProperty":"a","asProperty":"x","isLocalPropertyArray":null}"#,
            #"{"localProperty":"a","asProperty":"x","isOneToOneRelation":"yes"}"#, "null", #"[{"localProperty":"a"}]"#,
        ] {
            let error = #expect(throws: FilterError.self, "\(bad)") {
                try ObjectJoinCondition.list(json: JSONValue(parsing: bad))
            }
            #expect(error?.code == .invalidJoinCondition)
        }
    }

    @Test func contextFilterAcceptsOnlyConditions() throws {
        let filter = try ContextFilter(json: JSONValue(parsing: #"{"conditions":["floor",[7,1]],"take":"x"}"#))
        #expect(filter == ContextFilter.where("floor", .equals(1)))
        #expect(filter.json.serializedString() == #"{"conditions":["floor",[7,1]]}"#)
        #expect(throws: FilterError.self) { try ContextFilter(json: .null) }
        #expect(throws: FilterError.self) { try ContextFilter(json: ["conditions": ["floor", [42, 3]]]) }
    }

    // MARK: - Validation (isObjectFilterValid)

    @Test(arguments: [
        ("null", FilterError.Code.invalidFilter, "objectFilter:"),
        ("[]", .invalidFilter, "objectFilter:"),
        (#"{"conditions":null}"#, .invalidFilter, "objectFilter.conditions:"),
        (#"{"conditions":"n"}"#, .invalidFilter, "objectFilter.conditions:"),
        (#"{"conditions":["n"]}"#, .invalidCondition, "objectFilter.conditions:"),
        (#"{"conditions":["n",[7,1],"extra"]}"#, .invalidCondition, "objectFilter.conditions:"),
        (#"{"conditions":["",[9]]}"#, .invalidPropertyPath, "objectFilter.conditions[0]:"),
        (#"{"conditions":[5,[9]]}"#, .invalidPropertyPath, "objectFilter.conditions[0]:"),
        (#"{"conditions":[["a",1],[9]]}"#, .invalidPropertyPath, "objectFilter.conditions[0][1]:"),
        (#"{"conditions":["n",[]]}"#, .invalidCondition, "objectFilter.conditions[1]:"),
        (#"{"conditions":["n",{"0":9}]}"#, .invalidCondition, "objectFilter.conditions[1]:"),
        (#"{"conditions":["n",[15]]}"#, .invalidOperator, "objectFilter.conditions[1][0]:"),
        (#"{"conditions":{"and":[],"or":[]}}"#, .invalidFilter, "objectFilter.conditions:"),
        (#"{"conditions":{"and":[["n",[9]]],"or":null}}"#, .invalidFilter, "objectFilter.conditions.or:"),
        (#"{"conditions":{"and":{}}}"#, .invalidFilter, "objectFilter.conditions.and:"),
        (#"{"conditions":{"and":[["n",[9]],["n",[99]]]}}"#, .invalidOperator, "objectFilter.conditions.and[1][1][0]:"),
        (#"{"conditions":{"and":[{"or":[]}]}}"#, .invalidCondition, "objectFilter.conditions.and[0]:"),
        (#"{"skip":"1"}"#, .invalidFilter, "objectFilter.skip:"),
        (#"{"take":null}"#, .invalidFilter, "objectFilter.take:"),
        (#"{"orderByProperties":{}}"#, .invalidOrderBy, "objectFilter.orderByProperties:"),
        (#"{"orderByProperties":[["n","asc"]]}"#, .invalidOrderBy, "objectFilter.orderByProperties[0][1]:"),
    ])
    func invalidFiltersAreRejectedWithTheirLocation(text: String, code: FilterError.Code, location: String) throws {
        let json = try JSONValue(parsing: text)
        let error = #expect(throws: FilterError.self) { try ObjectFilter(json: json) }
        #expect(error?.code == code)
        #expect(error?.detail.hasPrefix(location) == true, "\(error?.detail ?? "")")
    }

    @Test(arguments: [
        #"{"conditions":{"and":[["n",[7]]],"x":1}}"#,
        #"{"orderByProperties":[["","Asc"]]}"#, #"{"orderByProperties":[]}"#, #"{"conditions":[["a",""],[9]]}"#,
        #"{"skip":-3,"take":1e300}"#, #"{"other":null}"#,
    ])
    func unusualButValidFiltersAreAccepted(text: String) throws {
        _ = try ObjectFilter(json: JSONValue(parsing: text))
    }

    /// coaty-js accepts any number; its in-memory store keeps positions i with 0 <= i - skip < take,
    /// which is the same as rounding up either value alone. Rounding both changes the page only when
    /// both are fractional, a page shape and never which agent answers.
    @Test func fractionalSkipAndTakeAreRoundedUpWhenDecoded() throws {
        let filter = try ObjectFilter(json: JSONValue(parsing: #"{"skip":1.5,"take":2.25}"#))
        #expect(filter.skip == 2 && filter.take == 3)
        #expect(filter.json.serializedString() == #"{"take":3,"skip":2}"#)
    }
}
