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
        package var cleanSession = true
        /// The MQTT protocol version.
        package var protocolVersion = MQTTVersion.v311
        /// How often a ping goes out when nothing else does; zero turns pings off. Whole seconds, 5 s or more.
        package var keepAlive = Duration.seconds(60)
        /// The username and password sent in CONNECT, if any.
        package var credentials: Credentials?
        /// TLS settings, used when ``BrokerURL/usesTLS`` is set.
        package var tls = TLS()
        /// The last will, published by the broker when the connection dies without DISCONNECT.
        package var will: Will?
        /// A local address to bind the socket to, if any.
        package var bindAddress: String?
        /// How many events ``MosquittoClient/events`` holds before the client stops reading its socket.
        package var eventBufferSize = 10_000
        /// Whether to acknowledge reads with `TCP_QUICKACK` when nothing was sent after them, so
        /// the client acknowledges the broker's packets at once instead of delaying the ACK (which,
        /// against a broker using Nagle's algorithm, can hold back the broker's next packet by up
        /// to 40 ms).
        package var usesTCPQuickAck = true
        /// Whether to set `TCP_NODELAY`, so small packets leave at once instead of waiting for an ACK.
        package var usesTCPNoDelay = true
    }

    /// A username and an optional password.
    package struct Credentials: Sendable {
        /// The username.
        package var username: String
        /// The password, if any.
        package var password: String?
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
        package var skipsHostnameVerification = false
        /// Skips verifying the broker's certificate altogether. For tests only.
        package var skipsCertificateVerification = false
    }

    /// The message the broker publishes when the connection dies without a DISCONNECT: for Coaty
    /// the agent's Deadvertise (`coaty/3/<namespace>/DAD/<identity id>`), QoS 0, not retained.
    package typealias Will = Publication
}
