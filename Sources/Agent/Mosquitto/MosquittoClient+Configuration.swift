package import CoreTypes
extension MosquittoClient {
    /// Everything a ``MosquittoClient`` needs to know before it connects.
    ///
    /// The defaults follow Coaty: MQTT 3.1.1, clean session, 60 s keep-alive, no will.
    package struct Configuration: Sendable {
        /// The MQTT client identifier. Empty lets the broker choose one (clean sessions only).
        package var clientID: String
        /// The broker to connect to.
        package var broker: BrokerURL
        /// Whether the broker discards the session on every connect. Coaty always uses `true`.
        package var cleanSession: Bool
        /// The MQTT protocol version.
        package var protocolVersion: MQTTVersion
        /// How often a ping goes out when nothing else does; zero turns pings off. Whole seconds, 5 s or more.
        package var keepAlive: Duration
        /// The username and password sent in CONNECT, if any.
        package var credentials: Credentials?
        /// TLS settings, used when ``BrokerURL/usesTLS`` is set.
        package var tls: TLS
        /// The last will, published by the broker when the connection dies without DISCONNECT.
        package var will: Will?
        /// A local address to bind the socket to, if any.
        package var bindAddress: String?
        /// How many events ``MosquittoClient/events`` holds before the client stops reading its socket.
        package var eventBufferSize: Int
        /// Whether to acknowledge reads with `TCP_QUICKACK` when nothing was sent after them, so
        /// the client acknowledges the broker's packets at once instead of delaying the ACK (which,
        /// against a broker using Nagle's algorithm, can hold back the broker's next packet by up
        /// to 40 ms).
        package var usesTCPQuickAck: Bool
        /// Whether to set `TCP_NODELAY`, so small packets leave at once instead of waiting for an ACK.
        package var usesTCPNoDelay: Bool

        /// Creates a configuration; every argument but the client id and broker has a default.
        package init(
            clientID: String,
            broker: BrokerURL,
            cleanSession: Bool = true,
            protocolVersion: MQTTVersion = .v311,
            keepAlive: Duration = .seconds(60),
            credentials: Credentials? = nil,
            tls: TLS = TLS(),
            will: Will? = nil,
            bindAddress: String? = nil,
            eventBufferSize: Int = 10_000,
            usesTCPQuickAck: Bool = true,
            usesTCPNoDelay: Bool = true
        ) {
            self.clientID = clientID
            self.broker = broker
            self.cleanSession = cleanSession
            self.protocolVersion = protocolVersion
            self.keepAlive = keepAlive
            self.credentials = credentials
            self.tls = tls
            self.will = will
            self.bindAddress = bindAddress
            self.eventBufferSize = eventBufferSize
            self.usesTCPQuickAck = usesTCPQuickAck
            self.usesTCPNoDelay = usesTCPNoDelay
        }
    }

    /// A username and an optional password.
    package struct Credentials: Sendable {
        /// The username.
        package var username: String
        /// The password, if any.
        package var password: String?

        /// Creates credentials.
        package init(username: String, password: String? = nil) {
            self.username = username
            self.password = password
        }
    }

    /// How the client verifies the broker and proves who it is over TLS.
    ///
    /// The broker's certificate is verified by default, against ``caFile`` or ``caDirectory`` when
    /// given, otherwise against the system's CA certificates.
    package struct TLS: Sendable {
        /// A PEM file of CA certificates that signed the broker's certificate.
        package var caFile: String?
        /// A directory of CA certificates prepared with `openssl rehash`.
        package var caDirectory: String?
        /// A PEM client certificate, for brokers that require one. Needs ``keyFile``.
        package var certificateFile: String?
        /// The PEM private key of ``certificateFile``.
        package var keyFile: String?
        /// Skips checking that the broker's certificate names the host we connect to
        /// (`mosquitto_tls_insecure_set`). The chain is still verified. For tests only.
        package var skipsHostnameVerification: Bool
        /// Skips verifying the broker's certificate altogether. For tests only.
        package var skipsCertificateVerification: Bool

        /// Creates TLS settings that verify the broker.
        package init(
            caFile: String? = nil,
            caDirectory: String? = nil,
            certificateFile: String? = nil,
            keyFile: String? = nil,
            skipsHostnameVerification: Bool = false,
            skipsCertificateVerification: Bool = false
        ) {
            self.caFile = caFile
            self.caDirectory = caDirectory
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.skipsHostnameVerification = skipsHostnameVerification
            self.skipsCertificateVerification = skipsCertificateVerification
        }
    }

    /// The message the broker publishes when the connection dies without a DISCONNECT.
    package struct Will: Sendable {
        /// The topic, for Coaty `coaty/3/<namespace>/DAD/<identity id>`.
        package var topic: String
        /// The payload bytes.
        package var payload: [UInt8]
        /// The QoS; Coaty uses 0.
        package var qos: MQTTQoS
        /// Whether the broker retains it; Coaty uses `false`.
        package var retain: Bool

        /// Creates a will.
        package init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }
}
