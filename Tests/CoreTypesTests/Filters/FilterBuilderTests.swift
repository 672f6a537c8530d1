import CoreTypes
import Testing

/// The builders produce the wire forms their names promise.
@Suite struct FilterBuilderTests {
    @Test func whereAndBuildsAnAndGroup() {
        let filter = ObjectFilter.where("isOn", .equals(true)).and("brightness", .greaterThan(0.5))
            .and("name", .like("Desk%"))
        #expect(
            filter.json.serializedString()
                == #"{"conditions":{"and":[["isOn",[7,true]],["brightness",[2,0.5]],["name",[6,"Desk%"]]]}}"#)
    }

    @Test func whereOrBuildsAnOrGroup() {
        let filter = ObjectFilter.where("name", .like("Desk%")).or("name", .like("Floor%"))
        #expect(
            filter.json.serializedString() == #"{"conditions":{"or":[["name",[6,"Desk%"]],["name",[6,"Floor%"]]]}}"#)
    }

    @Test func groupsFromLists() {
        let conditions = [ObjectFilterCondition("a", .exists), ObjectFilterCondition("b", .notExists)]
        #expect(ObjectFilter.allOf(conditions).conditions == .and(conditions))
        #expect(ObjectFilter.anyOf(conditions).conditions == .or(conditions))
        #expect(ObjectFilter.all.and("a", .exists).conditions == .condition(conditions[0]))
        #expect(ObjectFilter(conditions: .empty).or("a", .exists).conditions == .condition(conditions[0]))
    }

    @Test func orderingAndPaging() {
        let filter = ObjectFilter.all.orderBy("lastName").orderBy(["address", "zip.code"], .descending).skip(10).take(5)
        #expect(
            filter.json.serializedString()
                == #"{"orderByProperties":[["lastName","Asc"],[["address","zip.code"],"Desc"]],"take":5,"skip":10}"#)
        #expect(filter.skip == 10 && filter.take == 5)
    }

    @Test(arguments: [
        (ObjectFilterExpression.lessThan(1), "[0,1]"), (.lessThanOrEqual(1), "[1,1]"), (.greaterThan(1), "[2,1]"),
        (.greaterThanOrEqual(1), "[3,1]"), (.between(1, 5), "[4,1,5]"), (.notBetween(1, 5), "[5,1,5]"),
        (.like("Desk%"), #"[6,"Desk%"]"#), (.equals("x"), #"[7,"x"]"#), (.notEquals(nil), "[8,null]"),
        (.exists, "[9]"), (.notExists, "[10]"), (.contains(["red"]), #"[11,["red"]]"#),
        (.notContains(["a": 1]), #"[12,{"a":1}]"#), (.in([1, 2]), "[13,[1,2]]"), (.notIn([]), "[14,[]]"),
    ])
    func expressionFactoriesUseTheRightCodeAndOperands(expression: ObjectFilterExpression, wire: String) throws {
        #expect(expression.json.serializedString() == wire)
        #expect(expression.operands.count == expression.operator.operandCount)
        #expect(try ObjectFilterExpression(json: expression.json) == expression)
    }

    @Test func contextFilterBuilders() {
        let filter = ContextFilter.where("floor", .between(1, 3)).and("building", .in(["B1", "B2"]))
        #expect(
            filter.json.serializedString()
                == #"{"conditions":{"and":[["floor",[4,1,3]],["building",[13,["B1","B2"]]]]}}"#)
        #expect(ContextFilter.where("a", .exists).or("b", .exists).conditions?.conditions.count == 2)
    }

    @Test func builtFiltersMatchAsTheyRead() throws {
        let lamp: JSONObject = ["name": "Desk lamp", "isOn": true, "brightness": 0.8, "tags": ["warm", "led"]]
        #expect(
            try ObjectMatcher.matches(
                lamp, filter: ObjectFilter.where("isOn", .equals(true)).and("brightness", .greaterThan(0.5))))
        #expect(
            try !ObjectMatcher.matches(
                lamp, filter: ObjectFilter.where("isOn", .equals(false)).and("name", .like("Desk%"))))
        #expect(
            try ObjectMatcher.matches(
                lamp, filter: ObjectFilter.where("isOn", .equals(false)).or("tags", .contains(["led"]))))
        #expect(try ObjectMatcher.matches(lamp, filter: ObjectFilter.where("brightness", .between(1, 0.5))))
    }

    @Test func mixingAndWithOrTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = ObjectFilter.where("a", .exists).or("b", .exists).and("c", .exists)
        }
        await #expect(processExitsWith: .failure) {
            _ = ContextFilter.where("a", .exists).and("b", .exists).or("c", .exists)
        }
    }
}
