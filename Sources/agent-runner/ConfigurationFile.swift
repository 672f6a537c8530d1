import CoreTypes
import Foundation
import Yams

/// Reads a configuration file, JSON or YAML, into a JSON value.
///
/// `.json` files are JSON, `.yaml` and `.yml` files YAML; any other file is tried as JSON, then
/// as YAML. YAML scalars keep their YAML 1.1 types (quote `"yes"` and `"no"` to keep them strings).
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
                if lowercased.hasSuffix(".json") { throw RunnerError.usage("--config", "'\(path)' is not valid JSON: \(error)") }
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw RunnerError.usage("--config", "'\(path)' is not UTF-8 text")
        }
        do {
            guard let node = try Yams.compose(yaml: text) else { return .object([:]) }
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
            case .bool: return node.bool.map(JSONValue.bool) ?? .string(scalar.string)
            case .int: return node.int.map(JSONValue.int) ?? .string(scalar.string)
            case .float:
                guard let value = node.float, value.isFinite else {
                    throw RunnerError(code: .usage, message: "'\(path)': \(scalar.string) is not a finite number")
                }
                return .double(value)
            default: return .string(scalar.string)
            }
        case .sequence(let sequence):
            return .array(try sequence.enumerated().map { index, element in try json(element, at: "\(path)[\(index)]") })
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
}
