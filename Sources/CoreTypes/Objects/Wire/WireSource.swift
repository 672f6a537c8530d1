/// An incoming object as bytes with its members found (``ObjectScan``): what a ``WireReader``
/// reads when an event is decoded without a ``JSONValue`` tree. A member's value is parsed when
/// the type reads it; the members it does not read are parsed once, for ``CoatyObject/custom``.
struct WireSource: Sendable {
    /// The whole payload the object is in.
    let bytes: [UInt8]
    let scan: ObjectScan

    var count: Int { scan.members.count }

    /// The position of the member named `key`, looked for first at `hint`.
    func position(of key: String, hint: Int) -> Int? {
        var key = key
        return key.withUTF8 { utf8 in
            bytes.withUnsafeBytes { scan.position(of: UnsafeRawBufferPointer(utf8), hint: hint, in: $0) }
        }
    }

    /// The value of the member at `index`; `nil` only if its text, checked by the scan, does not parse.
    func value(at index: Int) -> JSONValue? {
        read(index) { reader throws(JSONParseError) in try reader.readValue() }
    }

    /// The value of the member at `index` when it is a string; `nil` for any other value.
    func string(at index: Int) -> String? {
        read(index) { reader throws(JSONParseError) in
            reader.bytes[reader.position] == UInt8(ascii: "\"") ? try reader.readString() : nil
        }
    }

    /// The value of the member at `index` when it is an array of strings; `nil` for any other value.
    func strings(at index: Int) -> [String]? {
        read(index) { reader throws(JSONParseError) in try reader.readStrings() }
    }

    /// The key of the member at `index` (ASCII without escapes: the scan made sure).
    func key(at index: Int) -> String {
        bytes.withUnsafeBytes { String(decoding: UnsafeRawBufferPointer(rebasing: $0[scan.members[index].key]), as: UTF8.self) }
    }

    /// The whole object, parsed (for ``WireReader/object``).
    func object() -> JSONObject {
        parse(scan.range)?.objectValue ?? JSONObject()
    }

    /// The members not marked in `read`, except `objectType` and `coreType`, in order: the
    /// object's ``CoatyObject/custom``.
    func unreadMembers(_ read: BitSet) -> JSONObject {
        var custom = JSONObject()
        bytes.withUnsafeBytes { buffer in
            for i in scan.members.indices where !read[i] {
                let key = scan.members[i].key
                if ObjectScan.equal(key, "objectType", in: buffer) || ObjectScan.equal(key, "coreType", in: buffer) {
                    continue
                }
                guard let value = parse(scan.members[i].value, in: buffer) else { continue }
                custom.appendNew(String(decoding: UnsafeRawBufferPointer(rebasing: buffer[key]), as: UTF8.self), value)
            }
        }
        return custom
    }

    private func parse(_ range: Range<Int>) -> JSONValue? {
        bytes.withUnsafeBytes { parse(range, in: $0) }
    }

    /// Reads the value of the member at `index` with `body`, from a reader at the value.
    @inline(__always)
    private func read<T>(_ index: Int, _ body: (inout JSONReader) throws(JSONParseError) -> T?) -> T? {
        bytes.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer: buffer, maximumDepth: JSONParser().maximumDepth)
            reader.position = scan.members[index].value.lowerBound
            return try? body(&reader)
        }
    }

    /// Parses the value at `range`, which the scan checked (so the depth it starts at does not matter).
    @inline(__always)
    private func parse(_ range: Range<Int>, in buffer: UnsafeRawBufferPointer) -> JSONValue? {
        var reader = JSONReader(buffer: buffer, maximumDepth: JSONParser().maximumDepth)
        reader.position = range.lowerBound
        return try? reader.readValue()
    }
}
