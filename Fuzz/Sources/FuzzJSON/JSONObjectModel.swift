import CoreTypes
import FuzzSupport

/// Runs the input as a program of `JSONObject` mutations, against a plain model: an array of
/// members whose keys are compared byte for byte, as JavaScript compares property names.
///
/// Each step takes three bytes: an operation, a key and a value. Keys come from a small set that
/// includes canonically equivalent spellings (`é` as one scalar and as `e` + combining accent),
/// which JavaScript keeps apart. The object must list the model's members in the
/// model's order, find each key where the model has it, and equal an object built from the model
/// (checked in full after the last step, and for the key concerned after every step).
/// The input's strings are also used as path and pointer texts, which must split into the
/// components a byte-wise model gives.
enum JSONObjectModel {
    static let keys: [String] =
        (0..<24).map { "k\($0)" } + ["\u{E9}", "e\u{301}", "\u{212B}", "\u{C5}", "A\u{30A}", ""]

    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        var object = JSONObject()
        var model: [(key: String, value: JSONValue)] = []
        var offset = 0
        while offset + 3 <= input.count, offset < 192 {
            let (operation, key, value) = (
                input[offset], keys[Int(input[offset + 1]) % keys.count], JSONValue.int(Int(input[offset + 2]))
            )
            offset += 3
            let position = model.firstIndex { $0.key.utf8.elementsEqual(key.utf8) }
            switch operation % 5 {
            case 0:
                object[key] = value
                if let position { model[position].value = value } else { model.append((key, value)) }
            case 1:
                object[key] = nil
                if let position { model.remove(at: position) }
            case 2:
                let old = object.updateValue(value, forKey: key)
                require(old == position.map { model[$0].value }, "updateValue returned \(String(describing: old))")
                if let position { model[position].value = value } else { model.append((key, value)) }
            case 3:
                let at = Int(input[offset - 1]) % (model.count + 3) - 1
                object.insert(value, forKey: key, at: at)
                if let position { model.remove(at: position) }
                model.insert((key, value), at: min(max(at, 0), model.count))
            default:
                let removed = object.removeValue(forKey: key)
                require(
                    removed == position.map { model[$0].value }, "removeValue returned \(String(describing: removed))")
                if let position { model.remove(at: position) }
            }
            let now = model.firstIndex { $0.key.utf8.elementsEqual(key.utf8) }
            require(object.count == model.count, "\(object.count) members, the model has \(model.count): \(object)")
            require(
                object.position(of: key) == now,
                "'\(key)' is at \(String(describing: object.position(of: key))), not \(String(describing: now))")
        }
        check(object, model)
    }

    private static func check(_ object: JSONObject, _ model: [(key: String, value: JSONValue)]) {
        require(object.count == model.count, "\(object.count) members, the model has \(model.count): \(object)")
        for (index, member) in model.enumerated() {
            require(
                object[index].key.utf8.elementsEqual(member.key.utf8),
                "member \(index) is '\(object[index].key)', the model has '\(member.key)'")
            require(object[index].value == member.value, "member \(index) has \(object[index].value)")
            require(
                object.position(of: member.key) == index,
                "'\(member.key)' found at \(String(describing: object.position(of: member.key))), not \(index)")
        }
        let rebuilt = JSONObject(model.map { ($0.key, $0.value) })
        require(rebuilt.count == model.count && rebuilt == object, "an object built from the model differs")
        require(rebuilt.hashValue == object.hashValue, "equal objects hash differently")
        if let missing = keys.first(where: { key in !model.contains { $0.key.utf8.elementsEqual(key.utf8) } }) {
            require(object[missing] == nil, "the missing key '\(missing)' has a value")
        }
    }

    /// Dotted paths split at every `.` byte and pointers at every `/` byte, with `~1` and `~0` undone.
    static func checkPaths(_ text: String) {
        // A long index pads an array with that many nulls (as lodash.set would create a sparse one),
        // so leave out paths that would allocate gigabytes.
        let hasLongIndex = text.utf8.split { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }
            .contains { $0.count > 4 && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        guard !hasLongIndex else { return }
        let components = Array(text.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        var object = JSONObject()
        object[path: text] = 1
        require(object[pathComponents: components] == 1, "path '\(text)' does not split into \(components)")
        // `-` appends to an array, so it names no position to read back.
        guard text.utf8.first == UInt8(ascii: "/"), !text.split(separator: "/").contains("-") else { return }
        let tokens = Array(text.utf8.dropFirst()).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { String(decoding: unescape($0), as: UTF8.self) }
        var pointed = JSONObject()
        pointed[pointer: text] = 2
        require(pointed[pathComponents: tokens] == 2, "pointer '\(text)' does not split into \(tokens)")
    }

    private static func unescape(_ token: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var index = token.startIndex
        while index < token.endIndex {
            if token[index] == UInt8(ascii: "~"), index + 1 < token.endIndex,
                token[index + 1] == UInt8(ascii: "1") || token[index + 1] == UInt8(ascii: "0")
            {
                result.append(token[index + 1] == UInt8(ascii: "1") ? UInt8(ascii: "/") : UInt8(ascii: "~"))
                index += 2
            } else {
                result.append(token[index])
                index += 1
            }
        }
        return result
    }
}
