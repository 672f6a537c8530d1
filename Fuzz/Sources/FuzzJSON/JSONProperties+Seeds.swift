import CoreTypes
import FuzzSupport

extension JSONProperties {
    /// Every payload and object text of the vectors, every vector case itself, the raw payload bytes,
    /// and a few numbers, escapes and nestings the vectors do not spell out.
    static func seeds(_ vectors: Vectors) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        let textKeys: Set<String> = [
            "payload", "callPayload", "requestPayload", "objectText", "outputObjectText", "inputPayload",
            "outputPayload",
        ]
        seeds += vectors.strings(forKeys: textKeys).map(\.seed)
        seeds += vectors.hexBytes(forKeys: ["payloadHex", "bytesHex", "$bytesHex"])
        seeds += vectors.values(forKeys: ["object", "filter", "objectFilter", "context"]).map(\.seed)
        for file in vectors.files.keys.sorted() {
            seeds += vectors.cases(file).map(\.seed).filter { $0.count <= 4096 }
        }
        seeds += [
            "0", "-0", "-0.0", "1.0", "1e21", "1e-7", "0.000001", "123456789012345678901234567890",
            "9007199254740993", "-9223372036854775808", "9223372036854775808", "1.7976931348623157e308",
            "2.2250738585072014e-308", "5e-324", "1e400", "0.1e-999", "[1.5,2.50,-3e2,4E+2]",
            #"{"a":1,"a":2,"b":{"c":[true,false,null]}}"#, #""\u00e9\ud83d\ude00\ud800\/\b\f\n\r\t\\\"""#,
            "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]", #"{"":{"":{"":{}}}}"#, " \t\r\n[ ] ",
        ].map(\.seed)
        return seeds
    }
}
