@testable import CoreTypes
import FuzzSupport

extension EventProperties {
    /// Every event payload of the vectors (inbound, outbound, session captures, raw bytes).
    static func seeds(_ vectors: Vectors) -> [[UInt8]] {
        var seeds = vectors.strings(forKeys: ["payload", "callPayload", "requestPayload", "inputPayload"]).map(\.seed)
        seeds += vectors.hexBytes(forKeys: ["payloadHex", "bytesHex", "$bytesHex"])
        seeds += vectors.values(forKeys: ["json"], in: ["events.json"]).map(\.seed)
        seeds += [
            #"{"object":{"objectId":"l1","objectType":"com.example.fuzz.Lamp","coreType":"CoatyObject","name":"L","isOn":true},"privateData":{}}"#,
            #"{"object":{"objectId":"b1","objectType":"com.example.fuzz.Beacon","coreType":"CoatyObject","name":"B","externalId":"x","isOn":true,"level":0.5,"floor":2,"tags":["a","b"],"aliases":null,"settings":{"mode":"eco","levels":[1]},"extra":[{}]},"privateData":{"p":1}}"#,
            #"{"objects":[{"objectId":"b2","objectType":"com.example.fuzz.Beacon","coreType":"CoatyObject","name":"","isOn":false,"level":-1e300,"label":"\u00e9","tags":[]},{"objectId":"b3","objectType":"com.example.fuzz.Beacon","coreType":"CoatyObject","name":"n","isOn":true,"level":1,"tags":["x"],"isDeactivated":false,"parentObjectId":"p"}]}"#,
            #"{"objectIds":["a","b"]}"#,
            #"{"objectId":"caf\u00e9","externalId":"e\u0301","object":{"objectId":"cafe\u0301","objectType":"t","coreType":"CoatyObject","name":"n","externalId":"\u00e9"}}"#,
            #"{"externalId":"e","objectTypes":["t"],"coreTypes":["Task"]}"#,
            #"{"objectFilter":{"conditions":["n",[3,1]],"orderByProperties":[["n","Desc"]],"skip":1.5,"take":2},"coreTypes":["CoatyObject"],"objectJoinConditions":{"localProperty":"a","asProperty":"b"}}"#,
            #"{"parameters":[1,"x"],"filter":{"conditions":{"or":[["a",[0]],["b.c",[9,[1,2]]]]}}}"#,
            #"{"error":{"code":-32602,"message":"bad","data":1},"executionInfo":null}"#,
            #"{"ioSourceId":"s","ioActorId":"a","associatingRoute":"coaty/3/-/IOV/s","updateRate":100}"#,
        ].map(\.seed)
        return seeds
    }
}
