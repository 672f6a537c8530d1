/// Stops the run when a property does not hold, so libFuzzer saves the input as a crash artifact.
///
/// - Parameters:
///   - condition: The property.
///   - message: What was expected, with the values involved.
@inline(__always)
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { violated(message(), file: file, line: line) }
}

/// Stops the run: a property does not hold.
public func violated(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("property violated: \(message)", file: file, line: line)
}

/// The bytes of a string, shortened for messages.
public func excerpt(_ bytes: some Collection<UInt8>, limit: Int = 300) -> String {
    let text = String(decoding: bytes.prefix(limit), as: UTF8.self)
    return bytes.count > limit ? text + "… (\(bytes.count) bytes)" : text
}
