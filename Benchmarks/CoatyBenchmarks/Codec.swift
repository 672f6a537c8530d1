import BenchmarkFixtures
import CoreTypes
import Foundation

/// B3: the object model and event payloads against Foundation on the same bytes, and the matcher.
enum Codec {
    /// Named parameters, as a Codable struct for JSONEncoder.
    struct PlainParameters: Codable {
        var state: String
        var brightness: Double
        var room: String
        var transition: Int
    }

    struct PlainCall: Codable {
        var parameters: PlainParameters
    }

    struct PlainResult: Codable {
        var state: String
        var brightness: Double
        var changed: Bool
    }

    struct PlainInfo: Codable {
        var duration: Int
        var host: String
    }

    struct PlainReturn: Codable {
        var result: PlainResult
        var executionInfo: PlainInfo
    }

    static let callText = #"{"parameters":{"state":"on","brightness":0.8,"room":"hall","transition":250}}"#
    static let returnText =
        #"{"result":{"state":"on","brightness":0.8,"changed":true},"executionInfo":{"duration":12,"host":"lamp-3"}}"#

    /// A Task with most of its members: a core type read and written through its member table.
    static let taskText =
        #"{"objectId":"0d4f2a6b-3c5e-4a7b-9d1f-2e4a6c8e0b1d","objectType":"coaty.Task","coreType":"Task","#
        + #""name":"Replace the filter","status":1,"creatorId":"7e9b1d3f-5a7c-4e9b-8d1f-3a5c7e9b1d3f","#
        + #""creationTimestamp":1600000000000,"dueTimestamp":1600086400000,"duration":3600000,"#
        + #""description":"Hall, second floor","requirements":{"skill":"hvac"},"#
        + #""assigneeObjectId":"2b4d6f8a-0c2e-4a6c-8e0b-2d4f6a8c0e2b"}"#

    static func run(budget: Duration, repeats: Int, report: Report) throws {
        let registry = Fixtures.registry()
        let lightBytes = Fixtures.lightBytes
        let sensorBytes = Fixtures.sensorBytes
        let lightData = Data(lightBytes)
        let sensorData = Data(sensorBytes)
        let codableBytes = Fixtures.codableLightBytes
        let decodedLight = try registry.decodeObject(JSONValue(parsing: lightBytes))
        let decodedCodableLight = try registry.decodeObject(JSONValue(parsing: codableBytes))
        precondition(decodedCodableLight is CodableLight, "the chain picked the wrong type")
        let decodedSensor = try registry.decodeObject(JSONValue(parsing: sensorBytes))
        precondition(decodedLight is Light && decodedSensor is BaseObject, "the chain picked the wrong types")
        let sensorRoundTrip = try JSONValue.object(decodedSensor.jsonObject()).serializedString()
        precondition(sensorRoundTrip == Fixtures.sensorText, "round trip changed the bytes")
        let plainLight = try JSONDecoder().decode(PlainLight.self, from: lightData)
        let jsonEncoder = JSONEncoder()

        let callBytes = Array(callText.utf8)
        let returnBytes = Array(returnText.utf8)
        let callData = Data(callBytes)
        let returnData = Data(returnBytes)
        let call = try Call(operation: "com.example.lights.switch", json: JSONValue(parsing: callBytes))
        let returned = try Return(json: JSONValue(parsing: returnBytes))
        let roundTrips = try call.payload() == callBytes && returned.payload() == returnBytes
        precondition(roundTrips, "payloads do not round-trip")
        let plainCall = try JSONDecoder().decode(PlainCall.self, from: callData)
        let plainReturn = try JSONDecoder().decode(PlainReturn.self, from: returnData)
        let size = lightBytes.count
        let taskBytes = Array(taskText.utf8)
        let taskData = Data(taskBytes)
        let task = try registry.decodeObject(JSONValue(parsing: taskBytes))
        precondition(task is TaskObject, "the chain picked the wrong type")
        let taskRoundTrip = try JSONValue.object(task.jsonObject()).serializedString()
        precondition(taskRoundTrip == taskText, "Task does not round-trip")
        let taskDictionary = try JSONSerialization.jsonObject(with: taskData)

        var sink = 0
        let section = "B3 decode and encode"
        let comparisons = [
            Comparison(
                section: section, title: "decode a registered type, Codable (\(size) bytes: parse + chain)",
                ours: Benchmark("ours") {
                    sink &+= try registry.decodeObject(JSONValue(parsing: codableBytes)).objectID.utf8.count
                },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: lightData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "decode a registered type, WireCodable (\(size) bytes: parse + chain)",
                ours: Benchmark("ours") {
                    sink &+= try registry.decodeObject(JSONValue(parsing: lightBytes)).objectID.utf8.count
                },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: lightData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "decode an unknown type into custom (\(size) bytes)",
                ours: Benchmark("ours") {
                    sink &+= try registry.decodeObject(JSONValue(parsing: sensorBytes)).custom.count
                },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: sensorData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode a registered type, Codable (to bytes)",
                ours: Benchmark("ours") {
                    sink &+= JSONValue.object(try decodedCodableLight.jsonObject()).serialized().count
                },
                baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainLight).count },
                baselineName: "JSONEncoder, Codable struct", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode a registered type, WireCodable (to bytes)",
                ours: Benchmark("ours") { sink &+= JSONValue.object(try decodedLight.jsonObject()).serialized().count },
                baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainLight).count },
                baselineName: "JSONEncoder, Codable struct", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode an unknown type from custom (to bytes)",
                ours: Benchmark("ours") { sink &+= JSONValue.object(try decodedSensor.jsonObject()).serialized().count },
                baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainLight).count },
                baselineName: "JSONEncoder, Codable struct", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "decode a core type, Task (\(taskBytes.count) bytes: parse + coaty-js checks)",
                ours: Benchmark("ours") {
                    sink &+= try registry.decodeObject(JSONValue(parsing: taskBytes)).objectID.utf8.count
                },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: taskData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode a core type, Task (to bytes)",
                ours: Benchmark("ours") { sink &+= JSONValue.object(try task.jsonObject()).serialized().count },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= try JSONSerialization.data(withJSONObject: taskDictionary).count
                }, baselineName: "JSONSerialization.data", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "decode a Call payload (\(callBytes.count) bytes, named parameters)",
                ours: Benchmark("ours") {
                    let call = try Call(operation: "com.example.lights.switch", json: JSONValue(parsing: callBytes))
                    sink &+= call.parameter(named: "room") == nil ? 0 : 1
                },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: callData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode a Call payload",
                ours: Benchmark("ours") { sink &+= try call.payload().count },
                baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainCall).count },
                baselineName: "JSONEncoder, Codable struct", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "decode a Return payload (\(returnBytes.count) bytes, result + executionInfo)",
                ours: Benchmark("ours") { sink &+= try Return(json: JSONValue(parsing: returnBytes)).result == nil ? 0 : 1 },
                baseline: Benchmark("JSONSerialization") {
                    sink &+= (try JSONSerialization.jsonObject(with: returnData) as? NSDictionary)?.count ?? 0
                }, baselineName: "JSONSerialization.jsonObject", target: .ratioAtLeast(1)),
            Comparison(
                section: section, title: "encode a Return payload",
                ours: Benchmark("ours") { sink &+= try returned.payload().count },
                baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainReturn).count },
                baselineName: "JSONEncoder, Codable struct", target: .ratioAtLeast(1)),
        ]
        for comparison in comparisons { report.add(try comparison.run(budget: budget, repeats: repeats)) }
        try matcher(budget: budget, repeats: repeats, report: report)
        if sink == 42 { print("") }  // keeps the results alive
    }

    /// Issue 3: a 5-condition filter on the ~300-byte light, against the same five tests written by hand.
    static func matcher(budget: Duration, repeats: Int, report: Report) throws {
        guard case .object(let light) = try JSONValue(parsing: Fixtures.lightBytes) else { return }
        let filter = ObjectFilter.where("floor", .equals(2))
            .and("luminosity", .greaterThan(0.5))
            .and("name", .like("Hall%"))
            .and("tags", .contains(["hall"]))
            .and("color", .in(["#ffcc00", "#ffffff"]))
        let matches = try ObjectMatcher.matches(light, filter: filter)
        precondition(matches, "the filter should match the light")
        var sink = 0
        let comparison = Comparison(
            section: "Issue 3: topics and filters", title: "ObjectMatcher, 5-condition filter on a \(Fixtures.lightBytes.count)-byte object",
            ours: Benchmark("ours") { sink &+= try ObjectMatcher.matches(light, filter: filter) ? 1 : 0 },
            baseline: Benchmark("hand-written") {
                let matches =
                    light["floor"]?.intValue == 2
                    && (light["luminosity"]?.doubleValue ?? 0) > 0.5
                    && (light["name"]?.stringValue?.hasPrefix("Hall") ?? false)
                    && (light["tags"]?.arrayValue?.contains(.string("hall")) ?? false)
                    && ["#ffcc00", "#ffffff"].contains(light["color"]?.stringValue ?? "")
                sink &+= matches ? 1 : 0
            }, baselineName: "the same 5 tests hand-written in Swift")
        report.add(try comparison.run(budget: budget, repeats: repeats))
        if sink == 42 { print("") }
    }

    /// Runs one hot path `count` times and nothing else, so that `valgrind --tool=callgrind`
    /// counts its instructions (the same count every run, unlike times on this shared machine):
    /// `encode` writes the payload of an Advertise of a ``Light``, `publications` also its two
    /// topics (what the agent publishes), `decode` parses such a payload and decodes the Light
    /// through the registry (`decode-payload` reads it from the bytes, as an agent does; `resolve` and
    /// `resolve-tree` a Resolve of it, as a requester does), `parse` parses seven small and medium documents into `JSONValue`s. Run it with 0 for the count of the start-up alone.
    static func loop(_ path: String, count: Int) throws {
        let registry = Fixtures.registry()
        let light = Fixtures.light()
        let payload = try Advertise(object: light).payload()
        var sink = 0
        switch path {
        case "order":
            // Orders 200 names as coaty-js does (ICU root collation), Latin with and without accents.
            let words = ["Hall", "hall", "Hällé", "Ærø", "Aero", "Zimmer", "zebra", "Éclair", "eclair", "Ölfen"]
            let objects: [JSONObject] = (0..<200).map { ["name": .string("\(words[$0 % words.count]) \($0 * 7919 % 200)")] }
            let filter = ObjectFilter.all.orderBy("name")
            for _ in 0..<count { sink &+= try filter.apply(to: objects).count }
        case "encode":
            for _ in 0..<count { sink &+= try Advertise(object: light).payload().count }
        case "publications":
            let scope = AgentScope(identityID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
            for _ in 0..<count { sink &+= try Advertise(object: light).publications(in: scope).count }
        case "parse":
            // Small and medium documents as Coaty sends them, parsed into JSONValue only.
            let texts = [
                callText, returnText, #"{"coreTypes":["Identity"]}"#, #"{"objectIds":["5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"]}"#,
                #"[{"x":1,"y":2.5},{"x":3,"y":-4},{}]"#, #"{"a":{"b":{"c":[true,false,null,"\u00e9\n"]}}}"#,
                String(decoding: payload, as: UTF8.self),
            ].map { Array($0.utf8) }
            for _ in 0..<count {
                for text in texts { sink &+= (try JSONValue(parsing: text)).objectValue?.count ?? 1 }
            }
        case "decode":
            for _ in 0..<count {
                let event = try Advertise(json: Advertise.parsePayload(payload), registry: registry)
                sink &+= (event.object as? Light)?.floor ?? 0
            }
        case "decode-payload":
            // What an agent observing Advertise does: the bytes read without a tree.
            for _ in 0..<count {
                let event = try Advertise(payload: payload, registry: registry)
                sink &+= (event.object as? Light)?.floor ?? 0
            }
        case "resolve", "resolve-tree":
            // The requester's decoding of a Resolve of the light (from bytes, or through the tree).
            let discover = Discover(objectID: light.objectID)
            let resolve = try Resolve(object: light).payload()
            for _ in 0..<count {
                let response =
                    path == "resolve"
                    ? try discover.decodeResponse(payload: resolve, registry: registry)
                    : try discover.decodeResponse(Resolve.parsePayload(resolve), registry: registry)
                sink &+= response.object == nil ? 0 : 1
            }
        case "encode-codable", "decode-codable":
            let registry = Fixtures.registry()
            let codable = try registry.decodeObject(JSONValue(parsing: Fixtures.codableLightBytes))
            let payload = try Advertise(object: codable).payload()
            for _ in 0..<count {
                if path == "encode-codable" {
                    sink &+= try Advertise(object: codable).payload().count
                } else {
                    let event = try Advertise(json: Advertise.parsePayload(payload), registry: registry)
                    sink &+= (event.object as? CodableLight)?.floor ?? 0
                }
            }
        default:
            fatalError("loop takes encode, publications, decode, encode-codable, decode-codable or parse, not '\(path)'")
        }
        print(path, count, sink)
    }
}
