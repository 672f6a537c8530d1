/// The bytes of a payload being written, shared by the event's ``PayloadStream`` and the
/// ``WireWriter`` of each object in it.
///
/// A class, so that `WireWriter` stays a copyable value while the bytes it writes can go straight
/// into the payload (``JSONOutput`` cannot be copied).
final class WireStream {
    /// Unchecked for exclusive access: only the writers of one payload, on one thread, use it, one
    /// after the other, so the runtime's check would only cost time.
    @exclusivity(unchecked) var output: JSONOutput

    init(capacity: Int) {
        output = JSONOutput(capacity: capacity)
    }

    /// The object that begins at `start` (its `{`) and runs to the end of the bytes, closed and parsed.
    func parseObject(from start: Int) throws(JSONParseError) -> JSONObject {
        var text = output.withBytes(from: start) { [UInt8]($0) }
        text.append(UInt8(ascii: "}"))
        guard case .object(let object) = try JSONValue(parsing: text) else { return JSONObject() }
        return object
    }
}
