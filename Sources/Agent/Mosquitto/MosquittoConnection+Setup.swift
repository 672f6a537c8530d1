import CoreTypes
internal import CMosquitto
import Glibc

/// Runs `mosquitto_lib_init` once per process.
enum MosquittoLibrary {
    /// The return code of the one `mosquitto_lib_init` call, made on first use.
    static let initialization: Int32 = mosquitto_lib_init()

    static func checkInitialized(broker: BrokerURL) throws {
        guard initialization == MOSQ_ERR_SUCCESS.rawValue else {
            throw MosquittoError.library(initialization, operation: .configure, broker: broker.description)
        }
    }
}

extension MosquittoConnection {
    /// Creates a handle with every option, the will and the callbacks set, or destroys it and throws.
    static func makeHandle(
        _ configuration: MosquittoClient.Configuration,
        context: UnsafeMutableRawPointer
    ) throws -> OpaquePointer {
        let broker = configuration.broker.description
        errno = 0
        let clientID = configuration.clientID.isEmpty ? nil : configuration.clientID
        let created = withOptionalCString(clientID) { mosquitto_new($0, configuration.cleanSession, context) }
        guard let handle = created else {
            if errno == ENOMEM {
                throw MosquittoError.library(MOSQ_ERR_NOMEM.rawValue, operation: .configure, broker: broker)
            }
            throw MosquittoError(
                code: .invalidArgument, operation: .configure, broker: broker,
                detail: "client id '\(configuration.clientID)' was rejected: an empty id needs a clean session")
        }
        do {
            try configure(handle, configuration)
        } catch {
            mosquitto_destroy(handle)
            throw error
        }
        CallbackBridge.install(on: handle)
        SocketPair.close(in: handle)
        return handle
    }

    private static func configure(_ handle: OpaquePointer, _ configuration: MosquittoClient.Configuration) throws {
        let broker = configuration.broker.description
        func check(_ result: Int32, _ what: String, operation: MosquittoError.Operation = .configure) throws {
            guard result != MOSQ_ERR_SUCCESS.rawValue else { return }
            let error = MosquittoError.library(result, errno: errno, operation: operation, broker: broker)
            throw MosquittoError(
                code: error.code, operation: operation, broker: broker, libraryCode: result,
                systemErrno: error.systemErrno, detail: "\(what): \(error.detail)")
        }
        // Threaded mode: calls only queue packets; MosquittoConnection.perform writes them itself.
        try check(mosquitto_threaded_set(handle, true), "threaded mode")
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, configuration.protocolVersion.level),
            "protocol version \(configuration.protocolVersion)")
        try check(
            mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, configuration.usesTCPNoDelay ? 1 : 0), "TCP_NODELAY")
        if let credentials = configuration.credentials {
            let result = withOptionalCString(credentials.password) { password in
                mosquitto_username_pw_set(handle, credentials.username, password)
            }
            try check(result, "username '\(credentials.username)'")
        }
        if configuration.broker.usesTLS {
            try configureTLS(handle, configuration.tls, check: check)
        }
        if let will = configuration.will {
            try setWill(will, on: handle, check: check)
        }
    }

    private static func configureTLS(
        _ handle: OpaquePointer,
        _ tls: MosquittoClient.TLS,
        check: (Int32, String, MosquittoError.Operation) throws -> Void
    ) throws {
        if tls.caFile != nil || tls.caDirectory != nil || tls.certificateFile != nil {
            let result = withOptionalCString(tls.caFile) { caFile in
                withOptionalCString(tls.caDirectory) { caDirectory in
                    withOptionalCString(tls.certificateFile) { certificateFile in
                        withOptionalCString(tls.keyFile) { keyFile in
                            mosquitto_tls_set(handle, caFile, caDirectory, certificateFile, keyFile, nil)
                        }
                    }
                }
            }
            let files = [tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile].compactMap { $0 }
            try check(
                result,
                "TLS files \(files) (a CA file or directory is needed, a certificate needs its key, all must be readable)",
                .configure)
        } else {
            try check(mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "system CA certificates", .configure)
        }
        if tls.skipsCertificateVerification {
            try check(mosquitto_tls_opts_set(handle, 0, nil, nil), "turning off certificate verification", .configure)
        }
        if tls.skipsHostnameVerification || tls.skipsCertificateVerification {
            try check(mosquitto_tls_insecure_set(handle, true), "turning off hostname verification", .configure)
        }
    }

    /// Sets or clears the will; takes effect on the next CONNECT.
    static func setWill(
        _ will: MosquittoClient.Will?,
        on handle: OpaquePointer,
        check: (Int32, String, MosquittoError.Operation) throws -> Void
    ) throws {
        guard let will else {
            try check(mosquitto_will_clear(handle), "clearing the will", .setWill)
            return
        }
        guard will.payload.count <= Int(Int32.max) else {
            try check(MOSQ_ERR_PAYLOAD_SIZE.rawValue, "will payload of \(will.payload.count) bytes", .setWill)
            return
        }
        let result = will.payload.withUnsafeBytes { payload in
            mosquitto_will_set(
                handle, will.topic, Int32(payload.count), payload.baseAddress, Int32(will.qos.rawValue), will.retain)
        }
        try check(result, "will topic '\(will.topic)'", .setWill)
    }

    /// Converts the keep-alive to the whole seconds libmosquitto takes: 0, or 5...65535.
    static func keepAliveSeconds(_ keepAlive: Duration, broker: BrokerURL) throws -> Int32 {
        let seconds = keepAlive.components.seconds
        guard seconds == 0 || (5...65_535).contains(seconds) else {
            throw MosquittoError(
                code: .invalidArgument, operation: .configure, broker: broker.description,
                detail: "keepAlive must be 0 (off) or 5 to 65535 seconds, not \(keepAlive)")
        }
        return Int32(seconds)
    }
}
