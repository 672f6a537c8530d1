/// Where a broker listens: host, port and whether the connection uses TLS.
///
/// Parse it from the URL forms Coaty uses, `mqtt://host:port` and `mqtts://host:port` (also `tcp://`
/// and `tls://`, as coaty-js accepts them). An IPv6 address goes in brackets: `mqtt://[::1]:1883`.
/// Without a port, `mqtt` means 1883 and `mqtts` means 8883.
///
/// ```swift
/// let broker = try BrokerURL("mqtts://broker.example.com")   // port 8883, TLS
/// ```
package struct BrokerURL: Hashable, Sendable, CustomStringConvertible {
    /// The port plain MQTT uses when the URL names none.
    package static let defaultPort = 1883
    /// The port MQTT over TLS uses when the URL names none.
    package static let defaultTLSPort = 8883

    /// The host name or IP address, without brackets.
    package var host: String
    /// The TCP port, 1...65535.
    package var port: Int
    /// Whether the connection uses TLS.
    package var usesTLS: Bool

    /// Creates a broker address from its parts.
    package init(host: String, port: Int? = nil, usesTLS: Bool = false) {
        self.host = host
        self.port = port ?? (usesTLS ? Self.defaultTLSPort : Self.defaultPort)
        self.usesTLS = usesTLS
    }

    /// Parses `mqtt://host:port` or `mqtts://host:port`.
    ///
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.invalidBrokerURL` naming the URL and
    ///   what is wrong with it (scheme, host, port, or a path that a broker URL cannot have).
    package init(_ url: String) throws {
        func invalid(_ reason: String) -> MosquittoError {
            MosquittoError(code: .invalidBrokerURL, operation: .parseBrokerURL, detail: "'\(url)': \(reason)")
        }
        guard let schemeEnd = url.firstRange(of: "://") else {
            throw invalid("no scheme")
        }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        switch scheme {
        case "mqtt", "tcp": usesTLS = false
        case "mqtts", "tls", "ssl": usesTLS = true
        default: throw invalid("scheme '\(scheme)' is not supported (only mqtt and mqtts)")
        }
        var rest = url[schemeEnd.upperBound...]
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains(where: { "/?#".contains($0) }) else {
            throw invalid("a broker URL has no path, query or fragment")
        }
        guard !rest.contains("@") else {
            throw invalid("put the username and password in the configuration, not in the URL")
        }
        let portText: Substring?
        if !rest.hasPrefix("["), rest.count(where: { $0 == ":" }) > 1 {
            throw invalid("write an IPv6 address in brackets, like mqtt://[::1]:1883")
        }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("'[' without ']' around the IPv6 address") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let afterHost = rest[rest.index(after: close)...]
            if afterHost.isEmpty {
                portText = nil
            } else if afterHost.hasPrefix(":") {
                portText = afterHost.dropFirst()
            } else {
                throw invalid("unexpected '\(afterHost)' after the IPv6 address")
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
            portText = nil
        }
        guard !host.isEmpty else { throw invalid("the host is empty") }
        if let portText {
            guard let number = Int(portText), (1...65_535).contains(number) else {
                throw invalid("port '\(portText)' is not a number between 1 and 65535")
            }
            port = number
        } else {
            port = usesTLS ? Self.defaultTLSPort : Self.defaultPort
        }
    }

    /// The URL: `mqtt://host:port` or `mqtts://host:port`, with IPv6 hosts in brackets.
    package var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(hostText):\(port)"
    }
}
