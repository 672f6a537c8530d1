import CoreTypes
import Testing

/// What the words in a coaty-js call can refer to besides the fixtures: the agent of the case and
/// the request it injected before responding.
struct CallContext {
    var scope = AgentScope(identityID: EventFixtures.agentA, namespace: "-", isCrossNamespacing: false)
    /// The payload of the injected request (`input.requestPayload`), if the case has one.
    var requestPayload: JSONValue?
}

/// Reads the words the vectors write in place of a value (``JSArgument/phrase(_:)``).
///
/// A phrase is `[adjective …] noun [with <key> <value> [and <key> <value> …]]`:
/// - nouns: the fixture names (``JSCall/environment``, any case: `Light`), the abbreviations
///   `src`/`source` (the IO source) and `actor` (the IO actor), a core type name (`Task`: the
///   fixture of that core type), `object` (the object of the injected request) and `route` (the
///   agent's IO route for the IO source);
/// - adjectives on objects: `core` (the object type is the core type's own, `coaty.<CoreType>`)
///   and `custom` (the object must have an application object type);
/// - `with objectType com.example.MyTask`: a member set to a value (JSON literal, or else text).
///
/// Any other word makes the phrase unreadable (``Unreadable``), so that new vocabulary is
/// reported rather than guessed.
enum CallPhrase {
    struct Unreadable: Error, CustomStringConvertible {
        let phrase: String
        let reason: String
        var description: String { "cannot read '\(phrase)': \(reason)" }
    }

    /// The value `words` stand for in `context`.
    static func value(of words: [String], in context: CallContext) throws -> JSONValue {
        let text = words.joined(separator: " ")
        let withIndex = words.firstIndex(of: "with") ?? words.endIndex
        let head = words[..<withIndex]
        guard let noun = head.last else { throw Unreadable(phrase: text, reason: "no noun before 'with'") }
        var value = try self.noun(noun, in: context, phrase: text)
        for adjective in head.dropLast().reversed() {
            value = try apply(adjective, to: value, phrase: text)
        }
        if withIndex < words.endIndex {
            value = try applyChanges(Array(words[(withIndex + 1)...]), to: value, phrase: text)
        }
        return value
    }

    /// A noun of the vocabulary (see the type's documentation).
    static func noun(_ noun: String, in context: CallContext, phrase: String) throws -> JSONValue {
        let aliases = ["src": "ioSource", "source": "ioSource", "actor": "ioActor"]
        let name = aliases[noun.lowercased()] ?? noun
        if let fixture = JSCall.environment.first(where: { $0.key.lowercased() == name.lowercased() }) {
            return fixture.value
        }
        switch noun.lowercased() {
        case "object":
            guard let object = context.requestPayload?["object"], object.objectValue != nil else {
                throw Unreadable(phrase: phrase, reason: "'object' is the injected request's object; there is none")
            }
            return object
        case "route":
            return .string(context.scope.ioRoute(forIoSource: EventFixtures.ioSource))
        default:
            guard let coreType = CoreType(rawValue: noun) else {
                throw Unreadable(phrase: phrase, reason: "'\(noun)' is not a fixture, core type or known noun")
            }
            return try fixture(of: coreType, phrase: phrase)
        }
    }

    /// The fixture object of `coreType`, preferring the one with the core type's own object type.
    static func fixture(of coreType: CoreType, phrase: String) throws -> JSONValue {
        let objects = JSCall.environment.sorted { $0.key < $1.key }.map(\.value).filter {
            $0["coreType"]?.stringValue == coreType.rawValue
        }
        let own = objects.first { $0["objectType"]?.stringValue == "coaty.\(coreType.rawValue)" }
        guard let object = own ?? objects.first else {
            throw Unreadable(phrase: phrase, reason: "no fixture object has the core type \(coreType.rawValue)")
        }
        return object
    }

    static func apply(_ adjective: String, to value: JSONValue, phrase: String) throws -> JSONValue {
        guard case .object(var members) = value, let coreType = members["coreType"]?.stringValue else {
            throw Unreadable(phrase: phrase, reason: "'\(adjective)' describes an object")
        }
        switch adjective.lowercased() {
        case "core":
            members["objectType"] = .string("coaty.\(coreType)")
            return .object(members)
        case "custom":
            guard members["objectType"]?.stringValue?.hasPrefix("coaty.") == false else {
                throw Unreadable(phrase: phrase, reason: "'custom' needs an object with an application object type")
            }
            return value
        default:
            throw Unreadable(phrase: phrase, reason: "'\(adjective)' is not a known adjective (core, custom)")
        }
    }

    /// `key value [and key value …]` applied to an object.
    static func applyChanges(_ words: [String], to value: JSONValue, phrase: String) throws -> JSONValue {
        guard case .object(var members) = value else {
            throw Unreadable(phrase: phrase, reason: "'with' changes members of an object")
        }
        for change in words.split(separator: "and") {
            guard change.count >= 2, let key = change.first else {
                throw Unreadable(phrase: phrase, reason: "'with' is followed by a key and a value")
            }
            members[key] = literal(change.dropFirst().joined(separator: " "))
        }
        return .object(members)
    }

    /// A JSON literal (`3`, `true`, `null`, `"x"`, `'x'`), else the text itself.
    static func literal(_ text: String) -> JSONValue {
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            return .string(String(text.dropFirst().dropLast()))
        }
        return (try? JSONValue(parsing: text)) ?? .string(text)
    }
}

extension JSCall {
    /// The call with every phrase replaced by its value and `...` by the usual arguments from
    /// `usual` (the arguments from that position on); nested calls are left as they are.
    func resolved(in context: CallContext, usual: [JSArgument] = []) throws -> JSCall {
        var expanded = arguments
        if let position = arguments.firstIndex(of: .elided) {
            // "the other arguments, as usual": at the end of the list only.
            guard position == arguments.count - 1 else {
                throw CallPhrase.Unreadable(phrase: "...", reason: "'...' stands for the last arguments only")
            }
            expanded = Array(arguments.dropLast()) + usual.dropFirst(position)
        }
        let resolved = try expanded.map { argument in
            guard case .phrase(let words) = argument else { return argument }
            return .value(try CallPhrase.value(of: words, in: context))
        }
        return JSCall(callee: callee, arguments: resolved, trailer: trailer)
    }
}
