import Foundation
import Testing
import TestSupport

/// The cases of `topics.json`, decoded per group into small case structs.
enum TopicVectors {
    /// Every case of `group` in `topics.json` (in `folder`, default: the vectors the tests read), in file order.
    static func cases<Case: TopicVectorCase>(_: Case.Type, in folder: URL? = nil) throws -> [Case] {
        let data = try VectorFiles.data("topics.json", in: folder)
        return try JSONDecoder().decode([OfGroup<Case>].self, from: data).compactMap(\.value)
    }

    /// One array element: the decoded case if it belongs to `Case.group`, else `nil`.
    private struct OfGroup<Case: TopicVectorCase>: Decodable {
        let value: Case?

        private enum Keys: String, CodingKey { case group }

        init(from decoder: any Decoder) throws {
            let group = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .group)
            value = group == Case.group ? try Case(from: decoder) : nil
        }
    }
}

/// A case of one group of `topics.json`; its test description is the case name.
protocol TopicVectorCase: Decodable, Sendable, CustomTestStringConvertible {
    static var group: String { get }
    var name: String { get }
}

extension TopicVectorCase {
    var testDescription: String { name }
}

/// A JavaScript value as the vectors write it: `{"$undefined": true}` or a missing key is `undefined`,
/// `{"$number": "NaN"}` a non-finite number.
enum JSValue: Decodable, Sendable, Equatable {
    case undefined
    case null
    case bool(Bool)
    case number(Double)
    case nonFiniteNumber(String)
    case string(String)

    private struct SentinelKeys: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else {
            let sentinel = try decoder.container(keyedBy: SentinelKeys.self)
            if let number = try sentinel.decodeIfPresent(String.self, forKey: SentinelKeys(stringValue: "$number")) {
                self = .nonFiniteNumber(number)
            } else if try sentinel.decodeIfPresent(Bool.self, forKey: SentinelKeys(stringValue: "$undefined")) == true {
                self = .undefined
            } else {
                throw DecodingError.dataCorruptedError(
                    in: single, debugDescription: "expected a JSON scalar or a $undefined/$number sentinel")
            }
        }
    }

    /// The string, or `nil` for any other value (`undefined` included).
    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as an `Int` if it is an integer that fits, else `nil` (`NaN` included).
    var integer: Int? {
        if case .number(let value) = self { Int(exactly: value) } else { nil }
    }
}

extension KeyedDecodingContainer {
    /// The value at `key`, with a missing key read as `undefined`.
    func decodeJS(_ key: Key) throws -> JSValue {
        try decodeIfPresent(JSValue.self, forKey: key) ?? .undefined
    }
}

// MARK: - Case shapes

struct TopicNameCase: TopicVectorCase {
    static let group = "topicName"
    struct Input: Decodable, Sendable {
        let version: Int
        let namespace: String?
        let eventType: String
        let eventTypeFilter: String?
        let sourceId: String
        let correlationId: String?
    }
    struct Expected: Decodable, Sendable { let topic: String }
    let name: String
    let input: Input
    let expected: Expected
}

struct TopicFilterCase: TopicVectorCase {
    static let group = "topicFilter"
    struct Input: Decodable, Sendable {
        let version: Int
        let namespace: String?
        let eventType: String
        let eventTypeFilter: String?
        let correlationId: String?
    }
    struct Expected: Decodable, Sendable { let topicFilter: String }
    let name: String
    let input: Input
    let expected: Expected
}

struct ParseCase: TopicVectorCase {
    static let group = "parse"
    struct Input: Decodable, Sendable { let topic: String }

    /// The fields of the `MqttTopic` that coaty-js returned.
    struct Fields: Decodable, Sendable {
        let version: JSValue
        let namespace: JSValue
        let eventType: JSValue
        let eventTypeFilter: JSValue
        let sourceId: JSValue
        let correlationId: JSValue

        private enum Keys: String, CodingKey {
            case version, namespace, eventType, eventTypeFilter, sourceId, correlationId
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            version = try container.decodeJS(.version)
            namespace = try container.decodeJS(.namespace)
            eventType = try container.decodeJS(.eventType)
            eventTypeFilter = try container.decodeJS(.eventTypeFilter)
            sourceId = try container.decodeJS(.sourceId)
            correlationId = try container.decodeJS(.correlationId)
        }
    }

    enum Expected: Decodable, Sendable {
        /// `createByName` returned `undefined`: not a Coaty topic.
        case notCoaty
        /// `createByName` threw.
        case throwsError(String)
        case topic(Fields)

        private enum Keys: String, CodingKey { case result, `throws` }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            if let message = try container.decodeIfPresent(String.self, forKey: .throws) {
                self = .throwsError(message)
            } else if try container.decodeNil(forKey: .result) {
                self = .notCoaty
            } else {
                self = .topic(try container.decode(Fields.self, forKey: .result))
            }
        }
    }

    let name: String
    let input: Input
    let expected: Expected
}

struct IsValidTopicCase: TopicVectorCase {
    static let group = "isValidTopic"
    struct Repeat: Decodable, Sendable {
        let unit: String
        let count: Int
    }
    struct Input: Decodable, Sendable {
        let topic: String?
        let topicRepeat: Repeat?
        let forSubscription: Bool
    }
    struct Expected: Decodable, Sendable { let valid: Bool }
    let name: String
    let input: Input
    let expected: Expected

    /// The topic to check: `topic`, or `unit` repeated `count` times.
    var topic: String? {
        if let topic = input.topic { return topic }
        guard let topicRepeat = input.topicRepeat else { return nil }
        return String(repeating: topicRepeat.unit, count: topicRepeat.count)
    }
}

struct MatchesCase: TopicVectorCase {
    static let group = "matches"
    struct Input: Decodable, Sendable {
        let topic: String
        let filter: String
    }
    struct Expected: Decodable, Sendable { let matches: Bool }
    let name: String
    let input: Input
    let expected: Expected
}

struct EventFilterCase: TopicVectorCase {
    static let group = "eventFilter"
    struct Input: Decodable, Sendable {
        let value: JSValue

        private enum Keys: String, CodingKey { case value }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: Keys.self).decodeJS(.value)
        }
    }
    struct Expected: Decodable, Sendable { let valid: Bool }
    let name: String
    let input: Input
    let expected: Expected
}

/// Only the client id of a `join` case; its last will and publications need event payloads.
struct JoinClientIDCase: TopicVectorCase {
    static let group = "join"
    struct Input: Decodable, Sendable { let identityId: String }
    struct Expected: Decodable, Sendable { let clientId: String }
    let name: String
    let input: Input
    let expected: Expected
}
