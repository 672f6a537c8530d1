internal import CMosquitto
package import CoreTypes
import Glibc

/// An error reported by libmosquitto, by the broker, or by our wrapper around them.
///
/// It carries the raw libmosquitto return code (`MOSQ_ERR_*`), the broker's CONNACK code or the
/// system `errno` when there is one, the operation that failed and, for anything to do with the
/// network, the broker URL. ``code`` groups the raw codes into the cases a caller acts on.
///
/// ```swift
/// do { try client.connect() } catch let error as MosquittoError where error.code == .unreachable {
///     // retry later
/// }
/// ```
package struct MosquittoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, independent of the raw code that reported it.
    package typealias Code = ErrorCode<MosquittoError>

    /// What was being done when the error happened.
    package struct Operation: Hashable, Sendable, CustomStringConvertible {
        /// The operation's name, for example `"connect"`.
        package let name: String

        /// Parsing a broker URL.
        package static let parseBrokerURL = Operation(name: "parse broker URL")
        /// Creating and configuring a client before it connects.
        package static let configure = Operation(name: "configure the client for")
        /// Starting a connection with ``MosquittoClient/connect()``.
        package static let connect = Operation(name: "connect to")
        /// The life of an established connection (reported in ``TransportEvent/disconnected(_:)``).
        package static let connection = Operation(name: "connection to")
        /// ``MosquittoClient/subscribe(to:qos:)``.
        package static let subscribe = Operation(name: "subscribe at")
        /// ``MosquittoClient/unsubscribe(from:)``.
        package static let unsubscribe = Operation(name: "unsubscribe at")
        /// ``MosquittoClient/publish(topic:payload:qos:retain:)``.
        package static let publish = Operation(name: "publish to")
        /// ``MosquittoClient/disconnect()``.
        package static let disconnect = Operation(name: "disconnect from")
        /// Setting the last will.
        package static let setWill = Operation(name: "set the will for")
        /// Creating or using the event loop.
        package static let eventLoop = Operation(name: "start the event loop")

        /// The operation's name.
        package var description: String { name }
    }

    /// The kind of failure.
    package var code: Code
    /// The operation that failed.
    package var operation: Operation
    /// The broker URL (`mqtt://host:port`) when the operation concerns a broker.
    package var broker: String?
    /// The raw libmosquitto return code (`MOSQ_ERR_*`), if libmosquitto reported the error.
    package var libraryCode: Int32?
    /// The broker's CONNACK return code (MQTT 3.1.1) or reason code (MQTT 5), if it refused the connection.
    package var connackCode: Int32?
    /// The system `errno`, if a system call failed.
    package var systemErrno: Int32?
    /// Text for the failure: from `mosquitto_strerror`, `mosquitto_connack_string`, `strerror` or our own words.
    package var detail: String

    /// One line: the operation, the broker, the kind of failure, the reason and the raw codes.
    package var description: String {
        var text = operation.name
        if let broker { text += " \(broker)" }
        text += " failed: \(code): \(detail)"
        var codes: [String] = []
        if let libraryCode { codes.append("MOSQ_ERR \(libraryCode)") }
        if let connackCode { codes.append("CONNACK \(connackCode)") }
        if let systemErrno { codes.append("errno \(systemErrno)") }
        if !codes.isEmpty { text += " (\(codes.joined(separator: ", ")))" }
        if let hint = code.hint { text += ". \(hint)" }
        return text
    }
}

extension MosquittoError.Code {
    /// What the user can do about it, when there is something obvious.
    fileprivate var hint: String? {
        switch self {
        case .unreachable: "Check that a broker listens at this address and port"
        case .notAuthorized: "Check the username, password or client certificate"
        case .tlsFailure: "Check the CA file, the client certificate and key, and that the port speaks TLS"
        case .invalidBrokerURL: "Write it as mqtt://host:port or mqtts://host:port"
        case .alreadyConnected: "Call disconnect() and wait for the disconnected event first"
        case .noConnection: "Call connect() and wait for the connected event first"
        default: nil
        }
    }
}

// MARK: - Building errors from raw codes

extension MosquittoError {
    /// Builds the error for a libmosquitto return code, reading `errno` when the code is `MOSQ_ERR_ERRNO`.
    ///
    /// - Parameters:
    ///   - returnCode: The `MOSQ_ERR_*` value that is not `MOSQ_ERR_SUCCESS`.
    ///   - errnoValue: The `errno` captured right after the call (ignored for other codes).
    ///   - connackCode: The last CONNACK code, used when `returnCode` is `MOSQ_ERR_CONN_REFUSED`.
    ///   - usesTLS: Whether the connection uses TLS, so that a protocol error of the socket counts as TLS.
    static func library(
        _ returnCode: Int32,
        errno errnoValue: Int32 = 0,
        operation: Operation,
        broker: String?,
        connackCode: Int32? = nil,
        protocolVersion: Int32 = MQTT_PROTOCOL_V311,
        usesTLS: Bool = false
    ) -> MosquittoError {
        if returnCode == MOSQ_ERR_CONN_REFUSED.rawValue, let connackCode, connackCode != 0 {
            return .connack(connackCode, protocolVersion: protocolVersion, operation: operation, broker: broker)
        }
        let usesErrno = returnCode == MOSQ_ERR_ERRNO.rawValue && errnoValue != 0
        let usesLookupError = returnCode == MOSQ_ERR_EAI.rawValue && errnoValue != 0
        let detail: String
        if usesErrno {
            detail = String(cString: strerror(errnoValue))
        } else if usesLookupError {
            detail = "cannot resolve the host name: " + String(cString: gai_strerror(errnoValue))
        } else {
            detail = String(cString: mosquitto_strerror(returnCode))
        }
        return MosquittoError(
            code: Code(libraryCode: returnCode, errno: usesErrno ? errnoValue : 0, usesTLS: usesTLS),
            operation: operation,
            broker: broker,
            libraryCode: returnCode,
            systemErrno: usesErrno ? errnoValue : nil,
            detail: detail
        )
    }

    /// Builds the error for a CONNACK that refused the connection.
    static func connack(
        _ connackCode: Int32,
        protocolVersion: Int32,
        operation: Operation,
        broker: String?
    ) -> MosquittoError {
        let isVersion5 = protocolVersion == MQTT_PROTOCOL_V5
        let text = isVersion5 ? mosquitto_reason_string(connackCode) : mosquitto_connack_string(connackCode)
        let notAuthorized: Set<Int32> = isVersion5 ? [0x86, 0x87, 0x8C] : [4, 5]
        return MosquittoError(
            code: notAuthorized.contains(connackCode) ? .notAuthorized : .refused,
            operation: operation,
            broker: broker,
            connackCode: connackCode,
            detail: text.map { String(cString: $0) } ?? "reason code \(connackCode)"
        )
    }

    /// Builds the error for a failed system call, such as `epoll_ctl`.
    static func system(_ call: String, errno errnoValue: Int32, operation: Operation, broker: String?) -> MosquittoError
    {
        MosquittoError(
            code: .system,
            operation: operation,
            broker: broker,
            systemErrno: errnoValue,
            detail: "\(call): " + String(cString: strerror(errnoValue))
        )
    }
}

extension MosquittoError.Code {
    /// Groups a libmosquitto return code (and `errno` for `MOSQ_ERR_ERRNO`) into a code.
    fileprivate init(libraryCode: Int32, errno errnoValue: Int32, usesTLS: Bool) {
        switch mosq_err_t(rawValue: libraryCode) {
        case MOSQ_ERR_NOMEM: self = .outOfMemory
        case MOSQ_ERR_INVAL, MOSQ_ERR_MALFORMED_UTF8, MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_OVERSIZE_PACKET,
            MOSQ_ERR_QOS_NOT_SUPPORTED, MOSQ_ERR_RETAIN_NOT_SUPPORTED:
            self = .invalidArgument
        case MOSQ_ERR_NO_CONN: self = .noConnection
        case MOSQ_ERR_CONN_REFUSED: self = .refused
        case MOSQ_ERR_AUTH: self = .notAuthorized
        case MOSQ_ERR_CONN_LOST: self = .connectionLost
        case MOSQ_ERR_TLS, MOSQ_ERR_TLS_HANDSHAKE, MOSQ_ERR_OCSP: self = .tlsFailure
        case MOSQ_ERR_EAI, MOSQ_ERR_LOOKUP: self = .unreachable
        case MOSQ_ERR_KEEPALIVE: self = .keepAliveTimeout
        case MOSQ_ERR_PROTOCOL, MOSQ_ERR_MALFORMED_PACKET, MOSQ_ERR_DUPLICATE_PROPERTY,
            MOSQ_ERR_TOPIC_ALIAS_INVALID:
            self = .protocolError
        case MOSQ_ERR_NOT_SUPPORTED: self = .notSupported
        case MOSQ_ERR_ERRNO: self = Self(errno: errnoValue, usesTLS: usesTLS)
        default: self = .unexpected
        }
    }

    /// Groups a socket `errno` into a code.
    fileprivate init(errno errnoValue: Int32, usesTLS: Bool) {
        switch errnoValue {
        case ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EHOSTDOWN, ENETDOWN, EADDRNOTAVAIL:
            self = .unreachable
        case ECONNRESET, EPIPE, ECONNABORTED:
            self = .connectionLost
        case EPROTO where usesTLS:
            self = .tlsFailure
        default:
            self = .system
        }
    }
}
