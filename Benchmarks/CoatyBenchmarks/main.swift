import CoreTypes
import Foundation

// Speed of the object model against Foundation, measured in the same run (design.md §7).
// Build and run with: swift build -c release --product CoatyBenchmarks && .build/release/CoatyBenchmarks [seconds]

struct Light: CoatyObject {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Light"
    var objectId: String
    var name: String
    var externalId: String?
    var parentObjectId: String?
    var isOn: Bool
    var luminosity: Double
    var color: String
    var floor: Int
    var tags: [String]
    @CustomFields var custom: JSONObject
}

/// The same members as a plain Codable struct, for JSONEncoder.
struct PlainLight: Codable {
    var objectId: String
    var objectType: String
    var coreType: String
    var name: String
    var externalId: String?
    var parentObjectId: String?
    var isOn: Bool
    var luminosity: Double
    var color: String
    var floor: Int
    var tags: [String]
    var installedAt: Double
}

let lightText =
    ##"{"objectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","objectType":"com.example.Light","coreType":"CoatyObject","name":"Hall light 3","externalId":"LX-2291-B","parentObjectId":"3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f","isOn":true,"luminosity":0.75,"color":"#ffcc00","floor":2,"tags":["hall","dimmable"],"installedAt":1600000000000}"##
let sensorText = lightText.replacingOccurrences(of: "com.example.Light", with: "com.example.Sensor")
let lightBytes = Array(lightText.utf8)
let sensorBytes = Array(sensorText.utf8)
let lightData = Data(lightBytes)
let sensorData = Data(sensorBytes)

var registry = ObjectTypeRegistry()
try registry.register(Light.self)
registry.freeze()

let decodedLight = try registry.decodeObject(JSONValue(parsing: lightBytes))
let decodedSensor = try registry.decodeObject(JSONValue(parsing: sensorBytes))
precondition(decodedLight is Light && decodedSensor is BaseObject, "the chain picked the wrong types")
let sensorRoundTrip = try JSONValue.object(decodedSensor.jsonObject()).serializedString()
precondition(sensorRoundTrip == sensorText, "round trip changed the bytes")
let plainLight = try JSONDecoder().decode(PlainLight.self, from: lightData)
let jsonEncoder = JSONEncoder()

let budget = Duration.milliseconds(Int((Double(CommandLine.arguments.dropFirst().first ?? "") ?? 3) * 1000))
print("object size: \(lightBytes.count) bytes, budget per comparison: \(budget)")

var sink = 0
let comparisons: [(Comparison, String)] = [
    (
        Comparison(
            title: "decode registered type (parse + chain)",
            ours: Benchmark("ours") {
                sink &+= try registry.decodeObject(JSONValue(parsing: lightBytes)).objectId.utf8.count
            },
            baseline: Benchmark("JSONSerialization") {
                sink &+= (try JSONSerialization.jsonObject(with: lightData) as? NSDictionary)?.count ?? 0
            }),
        "JSONSerialization.jsonObject"
    ),
    (
        Comparison(
            title: "decode unknown type into custom",
            ours: Benchmark("ours") {
                sink &+= try registry.decodeObject(JSONValue(parsing: sensorBytes)).custom.count
            },
            baseline: Benchmark("JSONSerialization") {
                sink &+= (try JSONSerialization.jsonObject(with: sensorData) as? NSDictionary)?.count ?? 0
            }),
        "JSONSerialization.jsonObject"
    ),
    (
        Comparison(
            title: "encode registered type (to bytes)",
            ours: Benchmark("ours") { sink &+= JSONValue.object(try decodedLight.jsonObject()).serialized().count },
            baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainLight).count }),
        "JSONEncoder, Codable struct"
    ),
    (
        Comparison(
            title: "encode unknown type from custom (to bytes)",
            ours: Benchmark("ours") { sink &+= JSONValue.object(try decodedSensor.jsonObject()).serialized().count },
            baseline: Benchmark("JSONEncoder") { sink &+= try jsonEncoder.encode(plainLight).count }),
        "JSONEncoder, Codable struct"
    ),
]

var rows: [Comparison.Row] = []
for (comparison, _) in comparisons { rows.append(try comparison.run(budget: budget)) }
Table.print(rows, baselines: comparisons.map(\.1))
if sink == 42 { print("") }  // keeps the results alive
