/// Parses JSON text (RFC 8259) into ``JSONValue``s, fast and strictly.
///
/// Strict: exactly one value surrounded by optional whitespace; no byte order mark, comments,
/// trailing commas, `NaN` or raw control characters in strings; strings must be UTF-8. A lone
/// UTF-16 surrogate written as an escape (`"\ud800"`) becomes U+FFFD, because a Swift `String`
/// cannot hold it. Integers that fit `Int` become ``JSONValue/int(_:)``; other numbers become
/// ``JSONValue/double(_:)`` (like JavaScript, `123456789012345678901234567890` becomes a double);
/// a number beyond the range of `Double` is rejected.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted; deeper input is rejected with
    /// `JSONParseError.Code.tooDeep` instead of exhausting the stack.
    public var maximumDepth: Int

    /// Creates a parser.
    public init(maximumDepth: Int = 512) {
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON text.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parseBuffer(UnsafeRawBufferPointer(buffer))
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBytes { parseBuffer($0) }.get()
    }

    /// Parses one JSON text held in a string.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { parseBuffer(UnsafeRawBufferPointer($0)) }
        return try result.get()
    }

    /// Checks that `bytes` are one JSON text that ``parse(_:)-(Collection<UInt8>)`` accepts, without building it.
    ///
    /// - Throws: ``JSONParseError`` naming the byte offset and the problem.
    public func validate(_ bytes: [UInt8]) throws(JSONParseError) {
        let result: Result<Void, JSONParseError> = bytes.withUnsafeBytes { buffer in
            var reader = JSONReader(buffer: buffer, maximumDepth: maximumDepth)
            do throws(JSONParseError) {
                reader.skipWhitespace()
                try reader.skipValue()
                reader.skipWhitespace()
                guard reader.position == buffer.count else {
                    throw reader.error(.trailingContent, "unexpected \(reader.describeByte()) after the value")
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    func parseBuffer(_ buffer: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> {
        var reader = JSONReader(buffer: buffer, maximumDepth: maximumDepth)
        do throws(JSONParseError) {
            return .success(try reader.readDocument())
        } catch {
            return .failure(error)
        }
    }
}

extension JSONValue {
    /// Parses JSON text from UTF-8 bytes.
    ///
    /// - Throws: ``JSONParseError`` naming the byte offset and the problem.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }

    /// Parses JSON text.
    ///
    /// - Throws: ``JSONParseError`` naming the byte offset and the problem.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }
}
