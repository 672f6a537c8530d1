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
            "[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]", #"{"\u00e9":1,"e\u0301":2,"\u212b":3,"a.\u0301b":["/x~1\u0301/y~01"]}"#,
            #"{"":{"":{"":{}}}}"#, " \t\r\n[ ] ",
        ].map(\.seed)
        // Programs for the JSONObject model: set 20 keys, then insert, update and remove spellings of é.
        seeds.append(
            Array("#".utf8) + (0..<20).flatMap { [0, UInt8($0), UInt8($0)] } + [3, 24, 1, 2, 25, 2, 4, 24, 0, 1, 0, 0])
        seeds.append(Array("#".utf8) + [0, 24, 1, 0, 25, 2, 0, 26, 3, 0, 27, 4, 1, 24, 0, 3, 28, 5])
        return seeds
    }
}
