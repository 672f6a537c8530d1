@testable import CoreTypes
import FuzzSupport

extension TopicProperties {
    /// Every topic, filter and topic/filter pair of the vectors, and the event names.
    static func seeds(_ vectors: Vectors) -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for testCase in vectors.cases("topics.json") {
            let input = testCase["input"]
            if let topic = input?["topic"]?.stringValue, let filter = input?["filter"]?.stringValue {
                seeds.append((topic + "\n" + filter).seed)
            }
        }
        let topicKeys: Set<String> = [
            "topic", "filter", "topicFilter", "requestTopic", "topics", "subscriptionsAfterJoin", "added",
            "removed", "value",
        ]
        for value in vectors.values(forKeys: topicKeys) {
            switch value {
            case .string(let text) where text.utf8.count < 512: seeds.append(text.seed)
            case .array(let elements): seeds += elements.compactMap(\.stringValue).map(\.seed)
            default: break
            }
        }
        for eventType in EventType.allCases {
            seeds.append("coaty/3/-/\(eventType.rawValue):filter/source/correlation".seed)
        }
        seeds += ["coaty/", "coaty/ 3x/ns/ADV/s", "$SYS/x\n+/x", "a/b/c\na/#", "a\na/#", "a//b\na/+/b"].map(\.seed)
        return seeds
    }
}
