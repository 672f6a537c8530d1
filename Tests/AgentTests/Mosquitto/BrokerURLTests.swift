import Agent
import Testing

@Suite struct BrokerURLTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        let text: String
        let host: String
        let port: Int
        let usesTLS: Bool
        let normalized: String
        var testDescription: String { text }
    }

    static let valid: [Valid] = [
        Valid(
            text: "mqtt://127.0.0.1:1883", host: "127.0.0.1", port: 1883, usesTLS: false,
            normalized: "mqtt://127.0.0.1:1883"),
        Valid(
            text: "mqtt://localhost", host: "localhost", port: 1883, usesTLS: false, normalized: "mqtt://localhost:1883"
        ),
        Valid(
            text: "mqtts://broker.example.com", host: "broker.example.com", port: 8883, usesTLS: true,
            normalized: "mqtts://broker.example.com:8883"),
        Valid(
            text: "mqtts://broker.example.com:443/", host: "broker.example.com", port: 443, usesTLS: true,
            normalized: "mqtts://broker.example.com:443"),
        Valid(
            text: "tcp://10.0.0.1:1884", host: "10.0.0.1", port: 1884, usesTLS: false,
            normalized: "mqtt://10.0.0.1:1884"),
        Valid(text: "tls://h:8884", host: "h", port: 8884, usesTLS: true, normalized: "mqtts://h:8884"),
        Valid(text: "MQTT://Host:1", host: "Host", port: 1, usesTLS: false, normalized: "mqtt://Host:1"),
        Valid(text: "mqtt://[::1]:1883", host: "::1", port: 1883, usesTLS: false, normalized: "mqtt://[::1]:1883"),
        Valid(
            text: "mqtts://[fe80::1]", host: "fe80::1", port: 8883, usesTLS: true, normalized: "mqtts://[fe80::1]:8883"),
    ]

    @Test(arguments: valid)
    func parsesValidURL(_ case: Valid) throws {
        let url = try BrokerURL(`case`.text)
        #expect(url.host == `case`.host)
        #expect(url.port == `case`.port)
        #expect(url.usesTLS == `case`.usesTLS)
        #expect(url.description == `case`.normalized)
        #expect(try BrokerURL(url.description) == url)
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        let text: String
        let reason: String
        var testDescription: String { text }
    }

    static let invalid: [Invalid] = [
        Invalid(text: "127.0.0.1:1883", reason: "no scheme"),
        Invalid(text: "ws://host:9001", reason: "scheme 'ws' is not supported"),
        Invalid(text: "http://host", reason: "scheme 'http' is not supported"),
        Invalid(text: "mqtt://", reason: "the host is empty"),
        Invalid(text: "mqtt://:1883", reason: "the host is empty"),
        Invalid(text: "mqtt://host:0", reason: "port '0' is not a number between 1 and 65535"),
        Invalid(text: "mqtt://host:65536", reason: "port '65536'"),
        Invalid(text: "mqtt://host:abc", reason: "port 'abc'"),
        Invalid(text: "mqtt://host:", reason: "port ''"),
        Invalid(text: "mqtt://host:1883/path", reason: "no path, query or fragment"),
        Invalid(text: "mqtt://host?x=1", reason: "no path, query or fragment"),
        Invalid(text: "mqtt://user:secret@host", reason: "username and password"),
        Invalid(text: "mqtt://[::1", reason: "'[' without ']'"),
        Invalid(text: "mqtt://[::1]x", reason: "unexpected 'x'"),
        Invalid(text: "mqtt://::1", reason: "IPv6 address in brackets"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidURLNamingIt(_ case: Invalid) throws {
        let error = try #require(throws: MosquittoError.self) { try BrokerURL(`case`.text) }
        #expect(error.code == .invalidBrokerURL)
        #expect(error.operation == .parseBrokerURL)
        #expect(error.description.contains("'\(`case`.text)'"))
        #expect(error.description.contains(`case`.reason), "\(error)")
    }

    @Test func defaultPortsFollowTheTLSFlag() {
        #expect(BrokerURL(host: "h").port == 1883)
        #expect(BrokerURL(host: "h", usesTLS: true).port == 8883)
        #expect(BrokerURL(host: "h", port: 1, usesTLS: true).port == 1)
    }
}
