import CoreTypes
internal import CMosquitto
import Glibc
import Synchronization

/// The object libmosquitto's callbacks reach through their `obj` pointer: it turns each callback into
/// one ``TransportEvent`` in the client's ordered, bounded stream.
///
/// libmosquitto calls the callbacks inside `mosquitto_loop_read`, `mosquitto_loop_write` or
/// `mosquitto_loop_misc` while the connection's lock is held: on the event loop thread, or for a
/// packet written at once, on the thread that queued it. They copy what they need, queue one event
/// and return: no blocking, no awaiting, no calls back into libmosquitto.
///
/// The queued events reach the reader in ``flush()``, which the connection calls after releasing
/// its lock. Waking the reader under that lock could deadlock: resuming the task that reads the
/// stream takes that task's status lock, which a thread cancelling the task holds while its
/// cancellation handler (an agent stopping) waits for the connection's lock to publish.
final class CallbackBridge: Sendable {
    let channel: TransportChannel
    /// Held while the channel or a reader's buffer downstream is full; the connection then stops reading.
    let readPressure = ReadPressure()
    /// The code of the last CONNACK, so that a refusal's disconnect can say why. Used under the connection's lock.
    private let lastConnack = Atomic<Int32>(0)
    /// Whether `on_disconnect` ran since the last connect; if not, the loop reports the disconnect itself.
    private let disconnectReported = Atomic<Bool>(false)
    /// Whether ``TransportEvent/published(_:)`` and ``TransportEvent/unsubscribed(_:)`` are reported.
    private let reportsPublications = Atomic<Bool>(true)
    private let reportsUnsubscriptions = Atomic<Bool>(true)
    /// Publications the broker refused with a PUBACK or PUBREC reason code (MQTT 5 only).
    private let refusedPublications = Atomic<Int>(0)
    /// Whether a CONNACK arrived since the last connect; then the connect log is no longer needed.
    private let connackArrived = Atomic<Bool>(false)
    /// What libmosquitto logged while connecting (it says why a TLS handshake failed only there).
    private let connectLog = Mutex(ConnectLog())
    /// The topics of the messages received: made once while a topic repeats, parsed once for the agent.
    let topics = TopicCache()
    private let broker: String
    private let host: String
    private let protocolVersion: Int32
    private let usesTLS: Bool

    init(broker: BrokerURL, protocolVersion: Int32, bufferSize: Int) {
        channel = TransportChannel(capacity: bufferSize, pressure: readPressure)
        self.broker = broker.description
        self.host = broker.host
        self.protocolVersion = protocolVersion
        self.usesTLS = broker.usesTLS
    }

    /// How many publications the broker refused (MQTT 5 PUBACK/PUBREC reason code 0x80 or more).
    var refusedPublicationCount: Int { refusedPublications.load(ordering: .relaxed) }

    /// Whether a CONNACK arrived since the last connect. Called under the connection's lock.
    var hasConnack: Bool { connackArrived.load(ordering: .relaxed) }

    /// Turns the reporting of ``TransportEvent/published(_:)`` and ``TransportEvent/unsubscribed(_:)``
    /// on or off (both are on at first). A reader that does not need them turns them off: every
    /// event it does not get is one wake-up of the reading task less.
    func report(publications: Bool, unsubscriptions: Bool) {
        reportsPublications.store(publications, ordering: .relaxed)
        reportsUnsubscriptions.store(unsubscriptions, ordering: .relaxed)
    }

    /// Queues one event for ``flush()`` (nothing is queued once the channel has finished).
    func yield(_ event: TransportEvent) {
        _ = channel.enqueue(event)
    }

    /// Hands the queued events to the reader. Call it without holding the connection's lock.
    func flush() {
        channel.wake()
    }

    /// Ends the stream, after the libmosquitto handle is destroyed (yielding what is queued first).
    func finish() {
        flush()
        channel.finish()
    }

    /// Called before each connect, under the connection's lock.
    func prepareForConnect() {
        lastConnack.store(0, ordering: .relaxed)
        disconnectReported.store(false, ordering: .relaxed)
        connackArrived.store(false, ordering: .relaxed)
        connectLog.withLock { $0 = ConnectLog() }
    }

    /// Reports the end of a connection that libmosquitto closed without calling `on_disconnect`
    /// (a failed TLS handshake). Called on the event loop thread under the connection's lock.
    func reportDisconnectIfNeeded(returnCode: Int32, errno errnoValue: Int32) {
        guard !disconnectReported.exchange(true, ordering: .relaxed) else { return }
        let code = returnCode == MOSQ_ERR_SUCCESS.rawValue ? MOSQ_ERR_CONN_LOST.rawValue : returnCode
        yield(.disconnected(connectionError(code, errno: errnoValue)))
    }

    private func connectionError(_ returnCode: Int32, errno errnoValue: Int32) -> MosquittoError {
        let connack = lastConnack.load(ordering: .relaxed)
        let error = MosquittoError.library(
            returnCode,
            errno: errnoValue,
            operation: .connection,
            broker: broker,
            connackCode: connack == 0 ? nil : connack,
            protocolVersion: protocolVersion,
            usesTLS: usesTLS
        )
        return explainingTLSFailure(error)
    }

    /// `error` with the reason a TLS handshake failed in its detail, when libmosquitto logged one
    /// since the last connect. Called under the connection's lock.
    func explainingTLSFailure(_ error: MosquittoError) -> MosquittoError {
        guard usesTLS, let reason = connectLog.withLock({ $0.tlsFailure(host: host) }) else { return error }
        return MosquittoError(
            code: .tlsFailure, operation: error.operation, broker: error.broker, libraryCode: error.libraryCode,
            connackCode: error.connackCode, systemErrno: error.systemErrno, detail: "\(reason) (\(error.detail))")
    }

    // MARK: - Callbacks (under the connection's lock)

    fileprivate func didConnect(_ code: Int32) {
        lastConnack.store(code, ordering: .relaxed)
        connackArrived.store(true, ordering: .relaxed)
        yield(.connected(ConnackCode(rawValue: code, protocolVersion: protocolVersion)))
    }

    fileprivate func didDisconnect(_ returnCode: Int32, errno errnoValue: Int32) {
        disconnectReported.store(true, ordering: .relaxed)
        let error = returnCode == MOSQ_ERR_SUCCESS.rawValue ? nil : connectionError(returnCode, errno: errnoValue)
        yield(.disconnected(error))
    }

    fileprivate func didReceive(_ message: mosquitto_message) {
        let cTopic: UnsafeMutablePointer<CChar>? = message.topic
        let topic = cTopic.map { topics.name(of: $0) } ?? ""
        let count = Int(max(0, message.payloadlen))
        // Array.init(_:) of a buffer pointer is specialized for UInt8; Array(unsafeUninitializedCapacity:)
        // would look the storage type up at run time (see JSONOutput.takeArray()).
        let source = message.payload.map { UnsafeBufferPointer(start: $0.assumingMemoryBound(to: UInt8.self), count: count) }
        let payload = source.map { [UInt8]($0) } ?? []
        let qos = MQTTQoS(rawValue: Int(message.qos)) ?? .atMostOnce
        yield(.message(InboundMessage(topic: topic, payload: payload, qos: qos, retain: message.retain)))
    }

    fileprivate func didSubscribe(_ mid: Int32, grantedQoS: UnsafeBufferPointer<Int32>) {
        yield(.subscribed(MQTTMessageID(rawValue: mid), grantedQoS: Array(grantedQoS)))
    }

    fileprivate func didUnsubscribe(_ mid: Int32) {
        guard reportsUnsubscriptions.load(ordering: .relaxed) else { return }
        yield(.unsubscribed(MQTTMessageID(rawValue: mid)))
    }

    fileprivate func didPublish(_ mid: Int32, reasonCode: Int32) {
        if reasonCode >= 0x80 { refusedPublications.add(1, ordering: .relaxed) }
        guard reportsPublications.load(ordering: .relaxed) else { return }
        yield(.published(MQTTMessageID(rawValue: mid)))
    }

    /// Keeps libmosquitto's error and warning lines while connecting, and the result of verifying
    /// the broker's certificate while the TLS session still exists.
    fileprivate func didLog(_ level: Int32, _ text: UnsafePointer<CChar>, handle: OpaquePointer?) {
        guard level & (MOSQ_LOG_ERR | MOSQ_LOG_WARNING) != 0 else { return }
        let line = String(cString: text)
        let verifyResult = line.hasPrefix("OpenSSL") ? OpenSSLVerification.result(of: handle) : nil
        connectLog.withLock { log in
            if log.lines.count < ConnectLog.maximumLines { log.lines.append(line) }
            if let verifyResult, log.verifyResult == nil { log.verifyResult = verifyResult }
        }
    }

    // MARK: - Installing the callbacks

    /// The pointer to pass as `obj` to `mosquitto_new`. The connection keeps the bridge alive for
    /// longer than the handle, so the callbacks never see a dangling pointer.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Sets every callback on `handle`, before it connects. The closures capture nothing, so they
    /// convert to C function pointers; their only context is the bridge behind `obj`.
    static func install(on handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { _, context, code in
            guard let context else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didConnect(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, code in
            let errnoValue = errno  // read first: it belongs to the failed socket call
            guard let context else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue()
                .didDisconnect(code, errno: errnoValue)
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didReceive(message.pointee)
        }
        mosquitto_subscribe_callback_set(handle) { _, context, mid, count, granted in
            guard let context else { return }
            let list = UnsafeBufferPointer(start: granted, count: granted == nil ? 0 : Int(max(0, count)))
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didSubscribe(mid, grantedQoS: list)
        }
        mosquitto_unsubscribe_callback_set(handle) { _, context, mid in
            guard let context else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didUnsubscribe(mid)
        }
        // The MQTT 5 callback also serves 3.1.1 (reason code 0): it reports the broker's refusals.
        mosquitto_publish_v5_callback_set(handle) { _, context, mid, reasonCode, _ in
            guard let context else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didPublish(mid, reasonCode: reasonCode)
        }
    }

    /// Starts keeping libmosquitto's log lines; called before each connect, under the connection's lock.
    ///
    /// Only while connecting: with a log callback set, libmosquitto formats a line for every packet.
    static func startCapturingLog(on handle: OpaquePointer) {
        mosquitto_log_callback_set(handle) { mosq, context, level, text in
            guard let context, let text else { return }
            Unmanaged<CallbackBridge>.fromOpaque(context).takeUnretainedValue().didLog(level, text, handle: mosq)
        }
    }

    /// Stops keeping log lines (after the CONNACK); called under the connection's lock.
    static func stopCapturingLog(on handle: OpaquePointer) {
        mosquitto_log_callback_set(handle, nil)
    }
}
