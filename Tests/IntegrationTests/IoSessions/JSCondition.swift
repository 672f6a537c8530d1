import CoreTypes
import Foundation

/// A rule condition of `io-sessions.json`, given as JavaScript text, mapped to Swift.
///
/// coaty-js calls a rule's condition as `(source, sourceNode, actor, actorNode, context, router)`.
/// The vectors give either the function's body expression or an arrow function. This maps the
/// expression subset that conditions over those objects' JSON need: member access (`a.b`,
/// `a["b"]`, `.length`), literals, `!`, `typeof`, `===` `!==` `==` `!=` `<` `<=` `>` `>=`, `&&`
/// `||` and parentheses, with JavaScript's truthiness, and a `TypeError` (a thrown condition, which
/// the router counts as not matching) for a member of `undefined` or `null`. Anything else (calls,
/// arithmetic, statements) is reported as not mappable, never guessed.
struct JSCondition: Sendable {
    /// The text uses JavaScript this mapping does not cover.
    struct NotMappable: Error, CustomStringConvertible {
        let text: String
        let reason: String
        var description: String { "rule condition not mappable to Swift (\(reason)): \(text)" }
    }

    /// Evaluating the condition threw, as the JavaScript would have (a member of `undefined`).
    struct TypeError: Error, CustomStringConvertible {
        let description: String
    }

    /// A JavaScript value of a condition.
    enum Value: Sendable, Equatable {
        case undefined
        case json(JSONValue)

        var isTruthy: Bool {
            switch self {
            case .undefined, .json(.null): false
            case .json(.bool(let flag)): flag
            case .json(.int(let number)): number != 0
            case .json(.double(let number)): number != 0 && !number.isNaN
            case .json(.string(let text)): !text.isEmpty
            case .json(.array), .json(.object): true
            }
        }
    }

    private indirect enum Node: Sendable {
        case literal(Value)
        case variable(Int)
        case member(Node, Node)
        case not(Node)
        case typeOf(Node)
        case binary(String, Node, Node)
    }

    /// The parameter names in coaty-js's order.
    static let parameters = ["source", "sourceNode", "actor", "actorNode", "context", "router"]

    let text: String
    private let root: Node

    /// Parses `text`; throws ``NotMappable`` for JavaScript outside the mapped subset.
    init(_ text: String) throws {
        self.text = text
        var parser = Parser(text: text)
        root = try parser.condition()
    }

    /// Evaluates the condition with `arguments` bound to the parameters in order (missing ones are
    /// `undefined`), as a JavaScript `if` would read its result.
    func holds(_ arguments: [Value]) throws -> Bool {
        try evaluate(root, arguments).isTruthy
    }

    private func evaluate(_ node: Node, _ arguments: [Value]) throws -> Value {
        switch node {
        case .literal(let value): return value
        case .variable(let index): return index < arguments.count ? arguments[index] : .undefined
        case .not(let operand): return .json(.bool(!(try evaluate(operand, arguments).isTruthy)))
        case .typeOf(let operand): return .json(.string(Self.typeName(try evaluate(operand, arguments))))
        case .member(let base, let key):
            let object = try evaluate(base, arguments)
            let name = try evaluate(key, arguments)
            return try Self.member(of: object, name)
        case .binary("&&", let left, let right):
            let value = try evaluate(left, arguments)
            return value.isTruthy ? try evaluate(right, arguments) : value
        case .binary("||", let left, let right):
            let value = try evaluate(left, arguments)
            return value.isTruthy ? value : try evaluate(right, arguments)
        case .binary(let op, let left, let right):
            return .json(.bool(try Self.compare(op, try evaluate(left, arguments), try evaluate(right, arguments))))
        }
    }

    private static func member(of object: Value, _ key: Value) throws -> Value {
        guard case .json(let json) = object, json != .null else {
            throw TypeError(description: "TypeError: cannot read properties of \(object == .undefined ? "undefined" : "null")")
        }
        let name: String
        switch key {
        case .json(.string(let text)): name = text
        case .json(.int(let index)): name = String(index)
        default: return .undefined
        }
        switch json {
        case .object(let members): return members[name].map(Value.json) ?? .undefined
        case .array(let elements):
            if name == "length" { return .json(.int(elements.count)) }
            return Int(name).flatMap { elements.indices.contains($0) ? .json(elements[$0]) : nil } ?? .undefined
        case .string(let text) where name == "length": return .json(.int(text.utf16.count))
        default: return .undefined
        }
    }

    private static func typeName(_ value: Value) -> String {
        switch value {
        case .undefined: "undefined"
        case .json(.null), .json(.array), .json(.object): "object"
        case .json(.bool): "boolean"
        case .json(.int), .json(.double): "number"
        case .json(.string): "string"
        }
    }

    private static func compare(_ op: String, _ left: Value, _ right: Value) throws -> Bool {
        switch op {
        case "===": return strictlyEqual(left, right)
        case "!==": return !strictlyEqual(left, right)
        case "==": return looselyEqual(left, right)
        case "!=": return !looselyEqual(left, right)
        default: break
        }
        if case .json(.string(let a)) = left, case .json(.string(let b)) = right {
            let (x, y) = (Array(a.utf16), Array(b.utf16))
            switch op {
            case "<": return x.lexicographicallyPrecedes(y)
            case ">": return y.lexicographicallyPrecedes(x)
            case "<=": return !y.lexicographicallyPrecedes(x)
            default: return !x.lexicographicallyPrecedes(y)
            }
        }
        guard let a = number(left), let b = number(right) else { return false }
        switch op {
        case "<": return a < b
        case ">": return a > b
        case "<=": return a <= b
        default: return a >= b
        }
    }

    /// `===`: same type and value; objects and arrays are distinct references.
    private static func strictlyEqual(_ left: Value, _ right: Value) -> Bool {
        switch (left, right) {
        case (.undefined, .undefined), (.json(.null), .json(.null)): return true
        case (.json(.bool(let a)), .json(.bool(let b))): return a == b
        case (.json(.string(let a)), .json(.string(let b))): return a == b
        case (.json(.int), _), (.json(.double), _):
            guard let a = number(left), let b = number(right), case .json(let json) = right, json.isNumber else {
                return false
            }
            return a == b
        default: return false
        }
    }

    /// `==`: `null == undefined`, numbers and numeric strings compared as numbers, else `===`.
    private static func looselyEqual(_ left: Value, _ right: Value) -> Bool {
        switch (left, right) {
        case (.undefined, .json(.null)), (.json(.null), .undefined): return true
        case (.json(.string), .json(.int)), (.json(.string), .json(.double)), (.json(.int), .json(.string)),
            (.json(.double), .json(.string)), (.json(.bool), _), (_, .json(.bool)):
            guard let a = number(left), let b = number(right) else { return false }
            return a == b
        default: return strictlyEqual(left, right)
        }
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case .json(.int(let number)): Double(number)
        case .json(.double(let number)): number
        case .json(.bool(let flag)): flag ? 1 : 0
        case .json(.string(let text)):
            text.trimmingCharacters(in: .whitespaces).isEmpty ? 0 : Double(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// A recursive-descent parser of the mapped subset.
    private struct Parser {
        let text: String
        private var tokens: [String]
        private var position = 0
        private var names = JSCondition.parameters

        init(text: String) {
            self.text = text
            self.tokens = Self.tokens(of: text)
        }

        /// An arrow function (`(a, b) => expr`), a `function (…) { return expr; }` is not mapped, or
        /// a bare expression.
        mutating func condition() throws -> Node {
            if let arrow = tokens.firstIndex(of: "=>") {
                let head = tokens[..<arrow].filter { $0 != "(" && $0 != ")" && $0 != "," }
                guard head.allSatisfy(Self.isIdentifier) else { throw unmappable("unexpected parameters") }
                names = Array(head)
                position = arrow + 1
            }
            let node = try orExpression()
            if peek == ";" { position += 1 }
            guard position == tokens.count else { throw unmappable("unexpected '\(peek ?? "")'") }
            return node
        }

        private var peek: String? { position < tokens.count ? tokens[position] : nil }

        private func unmappable(_ reason: String) -> NotMappable { NotMappable(text: text, reason: reason) }

        private mutating func expect(_ token: String) throws {
            guard peek == token else { throw unmappable("expected '\(token)'") }
            position += 1
        }

        private mutating func orExpression() throws -> Node {
            var node = try andExpression()
            while peek == "||" {
                position += 1
                node = .binary("||", node, try andExpression())
            }
            return node
        }

        private mutating func andExpression() throws -> Node {
            var node = try equality()
            while peek == "&&" {
                position += 1
                node = .binary("&&", node, try equality())
            }
            return node
        }

        private mutating func equality() throws -> Node {
            var node = try relation()
            while let op = peek, ["===", "!==", "==", "!="].contains(op) {
                position += 1
                node = .binary(op, node, try relation())
            }
            return node
        }

        private mutating func relation() throws -> Node {
            var node = try unary()
            while let op = peek, ["<", "<=", ">", ">="].contains(op) {
                position += 1
                node = .binary(op, node, try unary())
            }
            return node
        }

        private mutating func unary() throws -> Node {
            if peek == "!" {
                position += 1
                return .not(try unary())
            }
            if peek == "typeof" {
                position += 1
                return .typeOf(try unary())
            }
            return try postfix()
        }

        private mutating func postfix() throws -> Node {
            var node = try primary()
            while let token = peek {
                if token == "." {
                    position += 1
                    guard let name = peek, Self.isIdentifier(name) else { throw unmappable("a member name after '.'") }
                    position += 1
                    node = .member(node, .literal(.json(.string(name))))
                } else if token == "[" {
                    position += 1
                    let key = try orExpression()
                    try expect("]")
                    node = .member(node, key)
                } else if token == "(" {
                    throw unmappable("function calls")
                } else {
                    return node
                }
            }
            return node
        }

        private mutating func primary() throws -> Node {
            guard let token = peek else { throw unmappable("the expression ends early") }
            position += 1
            switch token {
            case "(":
                let node = try orExpression()
                try expect(")")
                return node
            case "true": return .literal(.json(.bool(true)))
            case "false": return .literal(.json(.bool(false)))
            case "null": return .literal(.json(.null))
            case "undefined": return .literal(.undefined)
            default: break
            }
            if let quote = token.first, quote == "\"" || quote == "'" {
                return .literal(.json(.string(String(token.dropFirst().dropLast()))))
            }
            if let number = Double(token) {
                return .literal(.json(number.rounded() == number && abs(number) < 1e15 ? .int(Int(number)) : .double(number)))
            }
            guard Self.isIdentifier(token) else { throw unmappable("'\(token)'") }
            guard let index = names.firstIndex(of: token) else { throw unmappable("the unknown name '\(token)'") }
            // The router is a coaty-js class instance, not JSON.
            guard index < 5 else { throw unmappable("the router argument") }
            return .variable(index)
        }

        private static func isIdentifier(_ token: String) -> Bool {
            guard let first = token.unicodeScalars.first, first == "_" || first == "$" || first.properties.isAlphabetic
            else { return false }
            return token.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
        }

        /// Splits `text` into identifiers, numbers, quoted strings (escapes not mapped) and operators.
        private static func tokens(of text: String) -> [String] {
            let operators = ["===", "!==", "=>", "==", "!=", "<=", ">=", "&&", "||", "!", "<", ">", ".", "[", "]", "(", ")", ",", ";", "{", "}", "+", "-", "*", "/", "?", ":", "="]
            var tokens: [String] = []
            var rest = Substring(text)
            while let first = rest.first {
                if first.isWhitespace {
                    rest = rest.dropFirst()
                } else if first == "\"" || first == "'" {
                    let end = rest.dropFirst().firstIndex(of: first) ?? rest.endIndex
                    let token = rest[..<(end == rest.endIndex ? end : rest.index(after: end))]
                    tokens.append(String(token))
                    rest = rest[token.endIndex...]
                } else if first.isNumber {
                    let token = rest.prefix { $0.isNumber || $0 == "." || $0 == "e" || $0 == "E" }
                    tokens.append(String(token))
                    rest = rest.dropFirst(token.count)
                } else if let op = operators.first(where: { rest.hasPrefix($0) }) {
                    tokens.append(op)
                    rest = rest.dropFirst(op.count)
                } else {
                    let token = rest.prefix { $0 == "_" || $0 == "$" || $0.isLetter || $0.isNumber }
                    let taken = token.isEmpty ? rest.prefix(1) : token
                    tokens.append(String(taken))
                    rest = rest.dropFirst(taken.count)
                }
            }
            return tokens
        }
    }
}
