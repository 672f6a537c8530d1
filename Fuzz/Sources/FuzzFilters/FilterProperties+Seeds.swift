import CoreTypes
import FuzzSupport

extension FilterProperties {
    /// `[filter, object]` for every matcher case, `[filter, context]` for every Call context case,
    /// every object filter of the event vectors, and a few orderings over several objects.
    static func seeds(_ vectors: Vectors) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for testCase in vectors.cases("matcher.json") {
            let input = testCase["input"] ?? [:]
            let object = input["object"] ?? input["context"] ?? .null
            if let filter = input["filter"] {
                seeds.append(JSONValue.array([filter, object]).seed)
            }
            if let payload = input["callPayload"]?.stringValue, let call = try? JSONValue(parsing: payload),
                let filter = call["filter"]
            {
                seeds.append(JSONValue.array([filter, object]).seed)
            }
        }
        seeds += vectors.values(forKeys: ["objectFilter", "objectJoinConditions"]).map(\.seed)
        seeds += [
            #"[{"orderByProperties":[["n","Desc"],["s","Asc"]],"skip":1,"take":2},{"n":1,"s":"b"},{"n":2,"s":"a"},{"n":1,"s":"a"},{"s":"Z"},{"n":"1"}]"#,
            #"[{"conditions":{"and":[["n",[2,0]],["s",[6,"a%"]]]},"skip":-1,"take":3},{"n":1,"s":"ab"},{"n":0,"s":"a"},{"n":5,"s":"b"}]"#,
            #"[{"conditions":["arr",[12,[1,"x"]]]},{"arr":[1,2]},{"arr":"x"},{}]"#,
            #"{"localProperty":"a","asProperty":"b","isOneToOneRelation":true}"#,
            #"[{"conditions":["a.\u0301b",[5,1]]},{"a":{"\u0301b":1}}]"#,
        ].map(\.seed)
        return seeds
    }
}
