import CoreTypes
import Testing

/// A value of a JavaScript call argument as the vectors write it.
enum JSArgument: Equatable, Sendable, CustomStringConvertible {
    /// JavaScript `undefined` (also an argument that is not passed).
    case undefined
    /// Any JSON value (`null` included).
    case value(JSONValue)
    /// A Node.js `Buffer`, written `Buffer<00 ff 10>` in the vectors.
    case bytes([UInt8])
    /// `...` in a call's argument list: "the other arguments, as usual".
    case elided
    /// A nested call, such as the event in `publishAdvertise(AdvertiseEvent.withObject(light))`.
    case call(JSCall)
    /// Words written in place of a value, such as `custom Light`, `core Task`, `src` or
    /// `Task with objectType com.example.MyTask`; ``CallPhrase`` reads them in the case's context.
    case phrase([String])

    var json: JSONValue? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The argument as JavaScript would write it (roughly).
    var description: String {
        switch self {
        case .undefined: return "undefined"
        case .value(let value): return value.serializedString()
        case .bytes(let bytes): return "Buffer<\(hex(bytes))>"
        case .elided: return "..."
        case .call(let call): return call.callee + "(…)"
        case .phrase(let words): return words.joined(separator: " ")
        }
    }
}

/// A coaty-js call written in the vectors' `call`, `action` or `setup` text, such as
/// `AdvertiseEvent.withObject({...light, name: undefined}, {n:1})`.
///
/// Reads the JavaScript subset the vectors use: string, number, Boolean, `null` and `undefined`
/// literals; arrays; object literals with bare or quoted keys and `...spread`; the fixture names
/// (`light`, `obj1`, …); the coaty-js enum constants (``constants``); `filterOp.<operator>(…)`;
/// and `Buffer<…>`. Any other words in an argument position, up to the next `,` or closing
/// bracket, are kept as a ``JSArgument/phrase(_:)`` for ``CallPhrase``. Text after the call (a
/// note such as `without association`, or `.subscribe()`) is kept in ``trailer``.
struct JSCall: Equatable, Sendable {
    /// The callee, such as `AdvertiseEvent.withObject` or `new DiscoverEventData`.
    var callee: String
    /// The arguments, `undefined` where written so.
    var arguments: [JSArgument]
    /// Anything written after the closing parenthesis (`.subscribe()`, a note).
    var trailer: String

    /// The argument at `index`, `undefined` when not passed.
    subscript(index: Int) -> JSArgument {
        arguments.indices.contains(index) ? arguments[index] : .undefined
    }

    init(callee: String, arguments: [JSArgument], trailer: String) {
        self.callee = callee
        self.arguments = arguments
        self.trailer = trailer
    }

    /// Parses `text`, or returns `nil` when it is not a call.
    init?(_ text: String) {
        var parser = JSParser(Array(text.unicodeScalars))
        guard let call = try? parser.call() else { return nil }
        self = call
    }

    /// The fixture values the vectors name.
    static let environment: [String: JSONValue] = [
        "light": .object(EventFixtures.lightJSON), "Light": .object(EventFixtures.lightJSON),
        "task": .object(EventFixtures.taskJSON), "coreObj": .object(EventFixtures.coreObjJSON),
        "other": .object(EventFixtures.otherJSON), "obj1": .string(EventFixtures.obj1),
        "obj2": .string(EventFixtures.obj2), "ioSource": .string(EventFixtures.ioSource),
        "ioActor": .string(EventFixtures.ioActor), "rawIoSource": .string(EventFixtures.rawIoSource),
    ]

    /// Every member of the enums that `@coaty/core` 2.4.1 exports and a call could name, by its
    /// JavaScript name (`RemoteCallErrorCode.InvalidParameters`), with the value coaty-js gives it.
    ///
    /// Read from the coaty-js v2.4.1 sources (paths below). TypeScript numbers enum members without
    /// an initializer from 0 in declaration order, so the declaration order is the value.
    static let constants: [String: JSONValue] = {
        var constants: [String: JSONValue] = [
            // src/com/call-return.ts (the only members of both enums)
            "RemoteCallErrorCode.InvalidParameters": -32602,
            "RemoteCallErrorMessage.InvalidParameters": "Invalid params",
            // src/model/log.ts (explicit initializers)
            "LogLevel.Debug": 10, "LogLevel.Info": 20, "LogLevel.Warning": 30, "LogLevel.Error": 40,
            "LogLevel.Fatal": 50,
        ]
        let declarationOrders: [(enumName: String, members: [String])] = [
            // src/model/io-point.ts
            ("IoSourceBackpressureStrategy", ["Default", "None", "Sample", "Throttle"]),
            // src/model/task.ts
            ("TaskStatus", ["Pending", "InProgress", "Done", "Blocked", "Cancelled", "Request", "RequestCancelled"]),
            // src/model/annotation.ts
            ("AnnotationStatus", ["StoredLocally", "StorageRequest", "Published", "Outdated"]),
            (
                "AnnotationType",
                ["Text", "Image", "Audio", "Video", "Object3D", "Pdf", "WebDocumentUrl", "LiveDataUrl"]
            ),
        ]
        for (enumName, members) in declarationOrders {
            for (value, member) in members.enumerated() { constants["\(enumName).\(member)"] = .int(value) }
        }
        // src/model/object-filter.ts: ObjectFilterOperator.LessThan … NotIn, numbered from 0.
        for (builder, code) in filterOperators {
            let member = builder.prefix(1).uppercased() + builder.dropFirst()
            constants["ObjectFilterOperator.\(member)"] = .int(code)
        }
        return constants
    }()

    /// The operator codes of coaty-js `ObjectFilterOperator`, by `filterOp` builder name.
    static let filterOperators: [String: Int] = [
        "lessThan": 0, "lessThanOrEqual": 1, "greaterThan": 2, "greaterThanOrEqual": 3, "between": 4,
        "notBetween": 5, "like": 6, "equals": 7, "notEquals": 8, "exists": 9, "notExists": 10, "contains": 11,
        "notContains": 12, "in": 13, "notIn": 14,
    ]
}

private struct JSParseFailure: Error {}

/// A small recursive-descent reader for the JavaScript subset of ``JSCall``.
private struct JSParser {
    let text: [Unicode.Scalar]
    var index = 0

    init(_ text: [Unicode.Scalar]) {
        self.text = text
    }

    mutating func call() throws -> JSCall {
        skipSpace()
        var callee = ""
        if consume("new ") { callee = "new " }
        callee += name()
        while consume(".") { callee += "." + name() }
        guard !callee.isEmpty, consume("(") else { throw JSParseFailure() }
        let arguments = try list(until: ")")
        var trailer = ""
        while index < text.count {
            trailer.unicodeScalars.append(text[index])
            index += 1
        }
        return JSCall(callee: callee, arguments: arguments, trailer: trailer.trimmingSpaces)
    }

    private mutating func list(until close: Unicode.Scalar) throws -> [JSArgument] {
        var values: [JSArgument] = []
        skipSpace()
        if consume(close) { return values }
        repeat {
            values.append(try value())
            skipSpace()
        } while consume(",")
        guard consume(close) else { throw JSParseFailure() }
        return values
    }

    private mutating func value() throws -> JSArgument {
        skipSpace()
        guard index < text.count else { throw JSParseFailure() }
        if consume("...") { return .elided }
        switch text[index] {
        case "'", "\"": return .value(.string(try string()))
        case "[":
            index += 1
            // JSON.stringify writes undefined array elements as null.
            return .value(.array(try list(until: "]").map { $0.json ?? .null }))
        case "{": return try object()
        case "-", "0"..."9": return .value(try number())
        default: return try word()
        }
    }

    private mutating func object() throws -> JSArgument {
        index += 1
        var members = JSONObject()
        skipSpace()
        if consume("}") { return .value(.object(members)) }
        repeat {
            skipSpace()
            if consume("...") {
                skipSpace()
                if text[index] == "}" { break }  // `{floor: 3, ...}`: other members elided
                guard case .value(.object(let spread)) = try word() else { throw JSParseFailure() }
                members.merge(spread)
            } else {
                let key = text[index] == "'" || text[index] == "\"" ? try string() : name()
                skipSpace()
                guard consume(":") else { throw JSParseFailure() }
                // A member set to undefined is not written by JSON.stringify.
                if let value = try value().json { members[key] = value } else { members[key] = nil }
            }
            skipSpace()
        } while consume(",")
        guard consume("}") else { throw JSParseFailure() }
        return .value(.object(members))
    }

    private mutating func word() throws -> JSArgument {
        let word = name()
        switch word {
        case "true": return .value(true)
        case "false": return .value(false)
        case "null": return .value(.null)
        case "undefined": return .undefined
        case "Buffer":
            guard consume("<") else { throw JSParseFailure() }
            var hex = ""
            while index < text.count, text[index] != ">" {
                if text[index] != " " { hex.unicodeScalars.append(text[index]) }
                index += 1
            }
            index += 1
            return .bytes(Hex.bytes(hex))
        case "filterOp":
            guard consume("."), let code = JSCall.filterOperators[name()], consume("(") else { throw JSParseFailure() }
            return .value(.array([.int(code)] + (try list(until: ")").map { $0.json ?? .null })))
        default:
            var callee = word
            let start = index
            while consume(".") { callee += "." + name() }
            if consume("(") {
                return .call(JSCall(callee: callee, arguments: try list(until: ")"), trailer: ""))
            }
            if let constant = JSCall.constants[callee] { return .value(constant) }
            index = start
            if let value = JSCall.environment[word] { return .value(value) }
            guard !word.isEmpty else { throw JSParseFailure() }
            return .phrase(phrase(startingWith: word))
        }
    }

    /// The words from here to the next `,` or closing bracket outside brackets and quotes, after
    /// `first`, which was already read.
    private mutating func phrase(startingWith first: String) -> [String] {
        var collected = first
        var depth = 0
        var quote: Unicode.Scalar?
        while index < text.count {
            let scalar = text[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "'" || scalar == "\"" {
                quote = scalar
            } else if "([{".unicodeScalars.contains(scalar) {
                depth += 1
            } else if ",)]}".unicodeScalars.contains(scalar) {
                if depth == 0 { break }
                if scalar != "," { depth -= 1 }
            }
            collected.unicodeScalars.append(scalar)
            index += 1
        }
        return collected.split(separator: " ").map(String.init)
    }

    private mutating func string() throws -> String {
        let quote = text[index]
        index += 1
        var result = ""
        while index < text.count, text[index] != quote {
            if text[index] == "\\" { index += 1 }
            result.unicodeScalars.append(text[index])
            index += 1
        }
        guard consume(quote) else { throw JSParseFailure() }
        // The vectors write fixture ids in strings as <name>.
        for (name, value) in JSCall.environment {
            if let id = value.stringValue { result = result.replacingAll("<\(name)>", with: id) }
        }
        return result
    }

    private mutating func number() throws -> JSONValue {
        var digits = ""
        while index < text.count, "-+.eE0123456789".unicodeScalars.contains(text[index]) {
            digits.unicodeScalars.append(text[index])
            index += 1
        }
        return try JSONValue(parsing: digits)
    }

    private mutating func name() -> String {
        var result = ""
        while index < text.count,
            text[index].properties.isAlphabetic || text[index] == "_" || text[index] == "$"
                || ("0"..."9").contains(text[index])
        {
            result.unicodeScalars.append(text[index])
            index += 1
        }
        return result
    }

    private mutating func consume(_ literal: String) -> Bool {
        let scalars = Array(literal.unicodeScalars)
        guard index + scalars.count <= text.count, Array(text[index..<index + scalars.count]) == scalars else {
            return false
        }
        index += scalars.count
        return true
    }

    private mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard index < text.count, text[index] == scalar else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < text.count, text[index] == " " || text[index] == "\n" { index += 1 }
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
