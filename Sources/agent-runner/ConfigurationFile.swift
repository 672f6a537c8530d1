import CoreTypes
import Foundation
import Yams

/// Reads a configuration file, JSON or YAML, into a JSON value.
///
/// `.json` files are JSON, `.yaml` and `.yml` files YAML; any other file is tried as JSON, then
/// as YAML. Plain YAML scalars take the types of the YAML 1.2 core schema: `yes`, `no`, `on` and
/// `off` are strings, `01234` is the integer 1234, `0o17` octal, `0x1F` hexadecimal, and only
/// `true`/`false` (in any of three cases) are booleans.
enum ConfigurationFile {
    /// The file's content as JSON.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the file and what is wrong with it.
    static func load(_ path: String) throws -> JSONValue {
        let bytes = try Input.read(path, option: "--config")
        let lowercased = path.lowercased()
        let isYAML = lowercased.hasSuffix(".yaml") || lowercased.hasSuffix(".yml")
        if !isYAML {
            do {
                return try JSONValue(parsing: bytes)
            } catch {
                if lowercased.hasSuffix(".json") {
                    throw RunnerError.usage("--config", "'\(path)' is not valid JSON: \(error)")
                }
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RunnerError.usage("--config", "'\(path)' is not UTF-8 text")
        }
        do {
            guard let node = try Yams.compose(yaml: text, try coreSchema()) else { return .object([:]) }
            return try json(node, at: "")
        } catch let error as RunnerError {
            throw RunnerError.usage("--config", "'\(path)': \(error.message)")
        } catch {
            throw RunnerError.usage("--config", "'\(path)' is not valid YAML: \(error)")
        }
    }

    /// Converts a YAML node to JSON, keeping mapping order.
    static func json(_ node: Node, at path: String) throws -> JSONValue {
        switch node {
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.description) {
            case .null: return .null
            case .bool: return .bool(scalar.string.lowercased() == "true")
            case .int: return integer(scalar.string).map(JSONValue.int) ?? .string(scalar.string)
            case .float:
                guard let value = Double(scalar.string), value.isFinite else {
                    throw RunnerError(code: .usage, message: "'\(path)': \(scalar.string) is not a finite number")
                }
                return .double(value)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(
                try sequence.enumerated().map { index, element in try json(element, at: "\(path)[\(index)]") })
        case .mapping(let mapping):
            var object = JSONObject()
            for (key, value) in mapping {
                guard case .scalar(let name) = key else {
                    throw RunnerError(code: .usage, message: "'\(path)': mapping keys must be plain strings")
                }
                let childPath = path.isEmpty ? name.string : "\(path).\(name.string)"
                object[name.string] = try json(value, at: childPath)
            }
            return .object(object)
        }
    }

    /// The tag rules of the YAML 1.2 core schema (yaml.org/spec/1.2.2, 10.3.2), for plain scalars.
    static func coreSchema() throws -> Resolver {
        try Resolver.basic
            .appending(.null, "^(?:~|null|Null|NULL|)$")
            .appending(.bool, "^(?:true|True|TRUE|false|False|FALSE)$")
            .appending(.int, "^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
            .appending(.float, #"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"#)
    }

    /// A core-schema integer: decimal (leading zeros allowed), `0o` octal or `0x` hexadecimal;
    /// `nil` when it does not fit in 64 bits.
    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text, radix: 10)
    }
}
