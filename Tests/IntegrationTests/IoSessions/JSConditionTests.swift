import CoreTypes
import Testing

/// The mapping of JavaScript rule conditions: the vectors' condition decides like coaty-js, the
/// JavaScript semantics it relies on hold, and what is not mapped is reported, never guessed.
@Suite struct JSConditionTests {
    static let floor1: JSCondition.Value = .json(["name": "kitchen", "characteristics": ["floor": 1]])
    static let floor2: JSCondition.Value = .json(["name": "kitchen", "characteristics": ["floor": 2]])
    static let plain: JSCondition.Value = .json(["name": "kitchen"])
    static let source: JSCondition.Value = .json(["name": "Thermometer", "valueType": "number[Celsius]"])

    @Test func theVectorsConditionMatchesNodesOnTheSameFloorOnly() throws {
        for session in try IoSessionCase.all() {
            for role in session.roles {
                for rule in role.router?["rules"]?.arrayValue ?? [] {
                    let condition = try JSCondition(try #require(rule["condition"]?.stringValue))
                    let sameFloor = try condition.holds([Self.source, Self.floor1, Self.source, Self.floor1])
                    let otherFloor = try condition.holds([Self.source, Self.floor1, Self.source, Self.floor2])
                    let noFloor = try condition.holds([Self.source, Self.plain, Self.source, Self.floor1])
                    #expect(sameFloor && !otherFloor && !noFloor, "\(condition.text)")
                }
            }
        }
    }

    @Test func javaScriptSemantics() throws {
        let arguments = [Self.source, Self.floor1, Self.source, Self.floor2]
        let cases: [(String, Bool)] = [
            ("sourceNode.characteristics.floor < actorNode.characteristics.floor", true),
            ("sourceNode.characteristics.floor == '1'", true),
            ("sourceNode.characteristics.floor === '1'", false),
            ("sourceNode.missing === undefined && sourceNode.missing == null", true),
            ("typeof source.valueType === \"string\" && source.valueType.length > 6", true),
            ("source['name'] !== actor.name || !!context", false),
            ("(source, node, actor, other) => node.characteristics.floor !== other.characteristics.floor", true),
        ]
        for (text, result) in cases {
            #expect(try JSCondition(text).holds(arguments) == result, "\(text)")
        }
    }

    @Test func aMemberOfUndefinedThrowsAsInJavaScript() throws {
        let condition = try JSCondition("sourceNode.characteristics.floor === 1")
        #expect(throws: JSCondition.TypeError.self) { try condition.holds([Self.source, Self.plain]) }
    }

    @Test func javaScriptOutsideTheMappedSubsetIsReported() {
        for text in [
            "source.name.startsWith('Floor')", "sourceNode.characteristics.floor + 1 === 2", "router.ioContext",
            "window.alert", "function (s) { return true; }",
        ] {
            #expect(throws: JSCondition.NotMappable.self, "\(text)") { try JSCondition(text) }
        }
    }
}
