import Glibc
import Testing

@testable import Agent

@Suite struct MosquittoErrorTests {
    struct LibraryCase: Sendable, CustomTestStringConvertible {
        let name: String
        let returnCode: Int32
        let errno: Int32
        let usesTLS: Bool
        let code: MosquittoError.Code
        var testDescription: String { name }
    }

    // Raw values from mosquitto.h (enum mosq_err_t), written out so the table reads without the C module.
    static let libraryCases: [LibraryCase] = [
        LibraryCase(name: "ECONNREFUSED", returnCode: 14, errno: ECONNREFUSED, usesTLS: false, code: .unreachable),
        LibraryCase(name: "EHOSTUNREACH", returnCode: 14, errno: EHOSTUNREACH, usesTLS: false, code: .unreachable),
        LibraryCase(name: "ETIMEDOUT", returnCode: 14, errno: ETIMEDOUT, usesTLS: false, code: .unreachable),
        LibraryCase(name: "ECONNRESET", returnCode: 14, errno: ECONNRESET, usesTLS: false, code: .connectionLost),
        LibraryCase(name: "EPROTO over TLS", returnCode: 14, errno: EPROTO, usesTLS: true, code: .tlsFailure),
        LibraryCase(name: "EPROTO without TLS", returnCode: 14, errno: EPROTO, usesTLS: false, code: .system),
        LibraryCase(name: "MOSQ_ERR_EAI", returnCode: 15, errno: EAI_NONAME, usesTLS: false, code: .unreachable),
        LibraryCase(name: "MOSQ_ERR_TLS", returnCode: 8, errno: 0, usesTLS: true, code: .tlsFailure),
        LibraryCase(name: "MOSQ_ERR_CONN_LOST", returnCode: 7, errno: 0, usesTLS: false, code: .connectionLost),
        LibraryCase(name: "MOSQ_ERR_KEEPALIVE", returnCode: 19, errno: 0, usesTLS: false, code: .keepAliveTimeout),
        LibraryCase(name: "MOSQ_ERR_PROTOCOL", returnCode: 2, errno: 0, usesTLS: false, code: .protocolError),
        LibraryCase(name: "MOSQ_ERR_INVAL", returnCode: 3, errno: 0, usesTLS: false, code: .invalidArgument),
        LibraryCase(name: "MOSQ_ERR_NO_CONN", returnCode: 4, errno: 0, usesTLS: false, code: .noConnection),
        LibraryCase(name: "MOSQ_ERR_NOMEM", returnCode: 1, errno: 0, usesTLS: false, code: .outOfMemory),
        LibraryCase(name: "MOSQ_ERR_AUTH", returnCode: 11, errno: 0, usesTLS: false, code: .notAuthorized),
        LibraryCase(name: "unknown code 99", returnCode: 99, errno: 0, usesTLS: false, code: .unexpected),
    ]

    @Test(arguments: libraryCases)
    func libraryCodeIsClassified(_ case: LibraryCase) {
        let error = MosquittoError.library(
            `case`.returnCode, errno: `case`.errno, operation: .connection, broker: "mqtt://h:1883",
            usesTLS: `case`.usesTLS)
        #expect(error.code == `case`.code)
        #expect(error.libraryCode == `case`.returnCode)
        #expect(error.description.hasPrefix("connection to mqtt://h:1883 failed: \(`case`.code): "))
    }

    @Test func errnoTextComesFromStrerror() {
        let error = MosquittoError.library(14, errno: ECONNREFUSED, operation: .connect, broker: "mqtt://h:1")
        #expect(error.systemErrno == ECONNREFUSED)
        #expect(error.detail == "Connection refused")
        #expect(error.description.contains("(MOSQ_ERR 14, errno \(ECONNREFUSED))"))
        #expect(error.description.contains("Check that a broker listens"))
    }

    @Test(arguments: [
        (Int32(4), MosquittoError.Code.notAuthorized), (5, .notAuthorized), (1, .refused), (2, .refused), (3, .refused),
    ])
    func connackRefusalIsClassified(connack: Int32, code: MosquittoError.Code) {
        // MOSQ_ERR_CONN_REFUSED (5) after a CONNACK carries the broker's reason.
        let error = MosquittoError.library(5, operation: .connection, broker: "mqtt://h:1883", connackCode: connack)
        #expect(error.code == code)
        #expect(error.connackCode == connack)
        #expect(error.libraryCode == nil)
        #expect(error.description.contains("CONNACK \(connack)"))
    }

    @Test func version5ReasonCodesUseReasonStrings() {
        let error = MosquittoError.connack(0x87, protocolVersion: 5, operation: .connection, broker: nil)
        #expect(error.code == .notAuthorized)
        #expect(error.detail == "Not authorized")
        #expect(ConnackCode(rawValue: 0x87, protocolVersion: 5).description == "Not authorized")
        #expect(ConnackCode(rawValue: 5, protocolVersion: 4).description == "Connection Refused: not authorised.")
        #expect(ConnackCode(rawValue: 0, protocolVersion: 4).isAccepted)
    }
}
