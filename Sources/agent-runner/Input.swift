import ArgumentParser
import CoreTypes
import Foundation

/// Reads what commands take as input: JSON texts and files, Coaty objects, durations, core types.
/// Every failure is a ``RunnerError`` with exit code 2 that names the option.
enum Input {
    /// Parses a JSON text given on the command line.
    static func json(_ text: String, option: String) throws -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw RunnerError.usage(option, "not valid JSON: \(error)")
        }
    }

    /// Reads and parses a JSON file (`-` reads standard input).
    static func jsonFile(_ path: String, option: String) throws -> JSONValue {
        let bytes = try read(path, option: option)
        do {
            return try JSONValue(parsing: bytes)
        } catch {
            throw RunnerError.usage(option, "'\(path)' is not valid JSON: \(error)")
        }
    }

    /// The bytes of a file (`-` reads standard input).
    static func read(_ path: String, option: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunnerError.usage(option, "cannot read '\(path)'")
        }
        return Array(data)
    }

    /// What `parse` makes of each non-blank line of `bytes`, a JSON value a line. Every bad line is
    /// reported on stderr (`SOURCE:LINE: why`) before it throws, so a user can fix them all at once.
    ///
    /// - Throws: ``RunnerError`` (exit 2) with the last bad line and `unlessBad` ("nothing was
    ///   published").
    static func jsonLines<T>(
        _ bytes: [UInt8], source: String, unlessBad: String, _ parse: (JSONValue) throws -> T
    ) throws -> [T] {
        var values: [T] = []
        var problems: [String] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
            do {
                values.append(try parse(JSONValue(parsing: Array(line))))
            } catch let error as RunnerError {
                problems.append("\(source):\(index + 1): \(error.message)")
            } catch {
                problems.append("\(source):\(index + 1): not JSON: \(error)")
            }
        }
        guard problems.isEmpty else {
            for problem in problems.dropLast() { Output.error("agent-runner: \(problem)") }
            throw RunnerError(code: .usage, message: problems[problems.count - 1] + " (\(unlessBad))")
        }
        return values
    }

    /// An object filter given as JSON (`--filter`).
    static func objectFilter(_ text: String?, option: String) throws -> ObjectFilter {
        guard let text else { return ObjectFilter() }
        do {
            return try ObjectFilter(json: json(text, option: option))
        } catch let error as RunnerError {
            throw error
        } catch {
            throw RunnerError.usage(option, "not a valid object filter: \(error)")
        }
    }

    /// The JSON of `--object JSON` or `--file F`: exactly one of them.
    static func objectJSON(object: String?, file: String?) throws -> (JSONValue, String) {
        switch (object, file) {
        case (let text?, nil): return (try json(text, option: "--object"), "--object")
        case (nil, let path?): return (try jsonFile(path, option: "--file"), "--file")
        case (.some, .some): throw RunnerError.usage("--object", "give --object or --file, not both")
        case (nil, nil): throw RunnerError.usage("--object", "give the object as --object JSON or --file F")
        }
    }

    /// Coaty objects from a JSON object or an array of them. An object without `objectId` gets a
    /// fresh one; everything else must be a valid object of its core type.
    static func objects(_ json: JSONValue, option: String, registry: ObjectTypeRegistry = ObjectTypeRegistry())
        throws -> [any CoatyObject]
    {
        let list: [JSONValue]
        switch json {
        case .object: list = [json]
        case .array(let elements) where !elements.isEmpty: list = elements
        default:
            throw RunnerError.usage(
                option, "expected a Coaty object or a non-empty array of them, found \(json.typeName)")
        }
        return try list.enumerated().map { index, element in
            let position = list.count > 1 ? " (element \(index))" : ""
            guard var members = element.objectValue else {
                throw RunnerError.usage(option, "expected a Coaty object\(position), found \(element.typeName)")
            }
            if members["objectId"] == nil { members["objectId"] = .string(ObjectID.make()) }
            do {
                return try registry.decodeObject(members)
            } catch {
                throw RunnerError.usage(option, "not a valid Coaty object\(position): \(error)")
            }
        }
    }

    /// Exactly one Coaty object.
    static func object(_ json: JSONValue, option: String) throws -> any CoatyObject {
        let list = try objects(json, option: option)
        guard list.count == 1, let object = list.first else {
            throw RunnerError.usage(option, "expected one Coaty object, found an array of \(list.count)")
        }
        return object
    }

    /// Core types by name (`Identity`, `Task`, …).
    static func coreTypes(_ names: [String], option: String) throws -> [CoreType] {
        try names.map { name in
            guard let type = CoreType(rawValue: name) else {
                let known = CoreType.allCases.map(\.rawValue).joined(separator: ", ")
                throw RunnerError.usage(option, "'\(name)' is not a core type (one of \(known))")
            }
            return type
        }
    }
}

/// A duration on the command line: `500ms`, `2s`, `1.5s`, `1m`, or a plain number of seconds.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    let duration: Duration
    let text: String

    init(_ duration: Duration, text: String) {
        self.duration = duration
        self.text = text
    }

    init?(argument: String) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(argument)
        var scale = 1.0
        for unit in units where argument.hasSuffix(unit.suffix) {
            number = argument.dropLast(unit.suffix.count)
            scale = unit.seconds
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 1e9 else { return nil }
        self.init(.milliseconds(Int64((value * scale * 1000).rounded())), text: argument)
    }

    var description: String { text }

    static var defaultCompletionKind: CompletionKind { .default }
}
