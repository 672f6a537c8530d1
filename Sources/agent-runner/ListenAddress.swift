/// The `HOST:PORT` an HTTP server of the runner listens on (`run --metrics`, `dashboard --listen`).
struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let port: Int

    /// Parses `text`.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming `option` when `text` is not `HOST:PORT`.
    init(_ text: String, option: String, example: String) throws {
        guard let colon = text.lastIndex(of: ":"), colon > text.startIndex,
            let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port)
        else {
            throw RunnerError.usage(option, "'\(text)' is not HOST:PORT, like \(example)")
        }
        self.host = String(text[..<colon])
        self.port = port
    }

    var description: String { "\(host):\(port)" }
}
