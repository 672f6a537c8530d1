import CoreTypes
import Foundation
import Testing

@Suite struct JSONValueCoderTests {
    struct Device: Codable, Equatable {
        var serialNumber: String
        var firmware: Firmware?
        var tags: [String]
        var ratio: Double
        var count: UInt8
        var raw: JSONValue
        var extra: JSONObject
        var nested: [String: Int]

        struct Firmware: Codable, Equatable {
            var version: String
            var build: Int
        }
    }

    let device = Device(
        serialNumber: "SN", firmware: .init(version: "1.2", build: 7), tags: ["a"], ratio: 0.25, count: 3,
        raw: [1, "x", nil], extra: ["z": 1, "a": 2], nested: ["k": 1])

    @Test func encodingKeepsTheTypesOrderAndLeavesOutNil() throws {
        let value = try JSONValueEncoder().encode(device)
        #expect(
            value.serializedString()
                == #"{"serialNumber":"SN","firmware":{"version":"1.2","build":7},"tags":["a"],"ratio":0.25,"count":3,"raw":[1,"x",null],"extra":{"z":1,"a":2},"nested":{"k":1}}"#
        )
        var withoutFirmware = device
        withoutFirmware.firmware = nil
        #expect(try !JSONValueEncoder().encodeObject(withoutFirmware).contains(key: "firmware"))
    }

    @Test func decodingRoundTripsAndPassesJSONValuesThrough() throws {
        let value = try JSONValueEncoder().encode(device)
        let decoded = try JSONValueDecoder().decode(Device.self, from: value)
        #expect(decoded == device)
        #expect(decoded.extra.keys == ["z", "a"])
        #expect(decoded.raw == [1, "x", nil])
    }

    @Test func numbersConvertLikeJavaScript() throws {
        #expect(try JSONValueDecoder().decode(Int.self, from: .double(2)) == 2)
        #expect(try JSONValueDecoder().decode(Double.self, from: .int(2)) == 2)
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Int.self, from: .double(2.5)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UInt8.self, from: .int(300)) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(String.self, from: .int(1)) }
    }

    @Test func errorsNameTheCodingPath() throws {
        var value = try JSONValueEncoder().encodeObject(device)
        value[path: "firmware.build"] = "seven"
        let error = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Device.self, from: value) }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["firmware", "build"])
        #expect(context.debugDescription.contains("'firmware.build'"))

        value[path: "firmware"] = nil
        value["tags"] = nil
        let missing = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Device.self, from: value) }
        guard case .keyNotFound(let key, _) = missing else {
            Issue.record("expected a missing key, got \(String(describing: missing))")
            return
        }
        #expect(key.stringValue == "tags")
    }

    @Test func nullIsPresentButDecodesAsNilForOptionals() throws {
        struct Holder: Codable { var a: Int?; var b: JSONValue? }
        let holder = try JSONValueDecoder().decode(Holder.self, from: ["a": nil, "b": nil] as JSONObject)
        #expect(holder.a == nil)
        #expect(holder.b == .null)
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Device.Firmware.self, from: ["version": nil, "build": 1] as JSONObject)
        }
    }

    @Test func nonFiniteNumbersAreEncodingErrors() {
        struct Reading: Encodable { var value: Double }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Reading(value: .nan)) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(UInt64.max) }
    }

    @Test func pascalCaseStrategyMapsEveryLevel() throws {
        let encoder = JSONValueEncoder(keyStrategy: .pascalCase)
        let value = try encoder.encode(device.firmware)
        #expect(value.serializedString() == #"{"Version":"1.2","Build":7}"#)
        let decoded = try JSONValueDecoder(keyStrategy: .pascalCase).decode(
            Device.self, from: try encoder.encode(device))
        #expect(decoded == device)
        // JSONValue and JSONObject members keep their own keys.
        #expect(try encoder.encode(device)[path: "Extra.z"] == 1)
    }

    @Test func customStrategyUsesTheClosures() throws {
        let snake = JSONKeyStrategy.custom(
            { name in
                name.unicodeScalars.map {
                    $0.properties.isUppercase ? "_" + $0.properties.lowercaseMapping : String($0)
                }.joined()
            },
            fromWire: { name in
                let parts = name.split(separator: "_")
                return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.capitalized }.joined()
            })
        let value = try JSONValueEncoder(keyStrategy: snake).encode(device)
        #expect(value["serial_number"] == "SN")
        #expect(try JSONValueDecoder(keyStrategy: snake).decode(Device.self, from: value) == device)
        #expect(snake.wireName(for: "serialNumber") == "serial_number")
        #expect(snake.swiftName(for: "serial_number") == "serialNumber")
        #expect(JSONKeyStrategy.pascalCase.swiftName(for: "SerialNumber") == "serialNumber")
    }

    @Test func nestedAndSuperContainersWork() throws {
        struct Manual: Codable, Equatable {
            var a: Int
            var list: [Int]
            enum Keys: String, CodingKey { case a, inner, list }
            enum InnerKeys: String, CodingKey { case a }
            init(a: Int, list: [Int]) {
                self.a = a
                self.list = list
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                a = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner).decode(Int.self, forKey: .a)
                var unkeyed = try container.nestedUnkeyedContainer(forKey: .list)
                var list: [Int] = []
                while !unkeyed.isAtEnd { list.append(try unkeyed.decode(Int.self)) }
                self.list = list
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
                try inner.encode(a, forKey: .a)
                var unkeyed = container.nestedUnkeyedContainer(forKey: .list)
                for element in list { try unkeyed.encode(element) }
            }
        }
        let value = try JSONValueEncoder().encode(Manual(a: 5, list: [1, 2]))
        #expect(value.serializedString() == #"{"inner":{"a":5},"list":[1,2]}"#)
        #expect(try JSONValueDecoder().decode(Manual.self, from: value) == Manual(a: 5, list: [1, 2]))
    }

    @Test func aKeyWrittenTwiceKeepsItsFirstPlaceAndLastValue() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .b)
                try container.encode(3, forKey: .a)
                // A second container of the same encoder writes into the same object.
                var again = encoder.container(keyedBy: Keys.self)
                try again.encode(4, forKey: .c)
                try again.encode(5, forKey: .b)
            }
        }
        #expect(try JSONValueEncoder().encode(Twice()).serializedString() == #"{"a":3,"b":5,"c":4}"#)
    }

    // Super encoders took only keyed containers: a single value or an unkeyed container written
    // through one was lost (`{}`), where JSONEncoder keeps it.
    @Test func superEncodersAndNestedContainersAreResolvedInsideTheirParents() throws {
        struct Layers: Encodable {
            enum Keys: String, CodingKey { case base, inner, list, after }
            enum InnerKeys: String, CodingKey { case x }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                let base = container.superEncoder(forKey: .base)
                let unnamed = container.superEncoder()
                var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try container.encode(true, forKey: .after)
                // Written after their parent went on: they still land where they were opened.
                var baseFields = base.container(keyedBy: InnerKeys.self)
                try baseFields.encode(1, forKey: .x)
                var unnamedValue = unnamed.singleValueContainer()
                try unnamedValue.encode("s")
                try inner.encode(2, forKey: .x)
                try list.encode(3)
                let elementSuper = list.superEncoder()
                var deeper = list.nestedContainer(keyedBy: InnerKeys.self)
                try deeper.encode(4, forKey: .x)
                var elementList = elementSuper.unkeyedContainer()
                try elementList.encode("t")
            }
        }
        let text = try JSONValueEncoder().encode(Layers()).serializedString()
        #expect(text == #"{"base":{"x":1},"super":"s","inner":{"x":2},"list":[3,["t"],{"x":4}],"after":true}"#)
        // What Foundation's encoder makes of it, key order aside.
        #expect(try JSONValue(parsing: Array(JSONEncoder().encode(Layers()))) == JSONValueEncoder().encode(Layers()))
    }

    @Test func customFieldsWrapperIsInvisibleToOtherCoders() throws {
        var light = Light(objectID: "l", name: "L", isOn: true)
        light.custom = ["x": 1]
        let data = try JSONEncoder().encode(light)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains("custom"))
        let back = try JSONDecoder().decode(Light.self, from: data)
        #expect(back.custom.isEmpty && back.isOn)
    }

    struct Arrays: Codable, Equatable {
        var strings: [String]
        var ints: [Int]
        var doubles: [Double]
        var flags: [Bool]
        var grid: [[Int]]
        var maybe: [String]?
        var small: [UInt8]
    }

    @Test func arraysOfScalarsDecodeAsThroughAnUnkeyedContainer() throws {
        let value: JSONValue = [
            "strings": ["a", "", "é"], "ints": [1, 2.0, -3], "doubles": [1, 2.5], "flags": [true, false],
            "grid": [[1], [], [2, 3]], "maybe": ["x"], "small": [0, 255],
        ]
        let decoded = try JSONValueDecoder().decode(Arrays.self, from: value)
        #expect(decoded == Arrays(
            strings: ["a", "", "é"], ints: [1, 2, -3], doubles: [1, 2.5], flags: [true, false], grid: [[1], [], [2, 3]],
            maybe: ["x"], small: [0, 255]))
        #expect(try JSONValueDecoder().decode([String].self, from: []) == [])
        #expect(try JSONValueDecoder().decode([Int].self, from: [1, 2.0]) == [1, 2])
        let misfit = #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Bool].self, from: [true, 1]) }
        guard case .typeMismatch(_, let context) = misfit else {
            Issue.record("expected a type mismatch, got \(String(describing: misfit))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["1"])
    }

    @Test(arguments: [
        ("strings", JSONValue.array(["a", 1]), ["strings", "1"]),
        ("ints", .array([1, 2.5]), ["ints", "1"]),
        ("doubles", .array([1, "2"]), ["doubles", "1"]),
        ("flags", .array([true, nil]), ["flags", "1"]),
        ("grid", .array([[1], ["x"]]), ["grid", "1", "0"]),
        ("strings", .string("a"), ["strings"]),
    ])
    func aMisfitInAnArrayOfScalarsIsReportedWhereItIs(member: String, misfit: JSONValue, path: [String]) throws {
        var object: JSONObject = [
            "strings": [], "ints": [], "doubles": [], "flags": [], "grid": [], "small": [],
        ]
        object[member] = misfit
        let error = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Arrays.self, from: .object(object))
        }
        let context: DecodingError.Context? =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): context
            default: nil
            }
        #expect(context?.codingPath.map(\.stringValue) == path, "\(String(describing: error))")
    }

    @Test func arraysOfScalarsEncodeAsThroughAnUnkeyedContainer() throws {
        let arrays = Arrays(
            strings: ["a", "", "é\n"], ints: [1, -2, Int.max], doubles: [0.5, -0.0, 1e21, 2], flags: [true, false],
            grid: [[1], [], [2, 3]], maybe: nil, small: [0, 255])
        let encoded = try JSONValueEncoder().encode(arrays)
        #expect(encoded.serializedString()
            == #"{"strings":["a","","é\n"],"ints":[1,-2,9223372036854775807],"doubles":[0.5,0,1e+21,2],"flags":[true,false],"grid":[[1],[],[2,3]],"small":[0,255]}"#)
        #expect(try JSONValueEncoder().encode([1.5, 2]) == [.double(1.5), .double(2)])
        #expect(try JSONValueEncoder().encode([String]()) == [])
        #expect(try JSONValueDecoder().decode(Arrays.self, from: encoded) == arrays)
    }

    @Test func aNonFiniteDoubleInAnArrayIsReportedWhereItIs() throws {
        let arrays = Arrays(strings: [], ints: [], doubles: [1, .infinity], flags: [], grid: [], maybe: nil, small: [])
        let error = #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(arrays) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected an invalid value, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["doubles", "1"])
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.nan]) }
    }
}
