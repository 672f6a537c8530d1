internal import CMosquitto
import Glibc
import Synchronization

/// Owns one libmosquitto handle and the callback bridge behind it; ``MosquittoClient`` is its API
/// and ``MosquittoEventLoop`` drives its socket.
///
/// Threading: every libmosquitto call on the handle, from the caller's thread or the loop thread,
/// happens with `state`'s lock held, so the handle is never used by two threads at once (which
/// also keeps OpenSSL's per-connection object single-threaded). The handle is in libmosquitto's
/// "threaded" mode (`mosquitto_threaded_set`), so its calls only queue packets; ``perform(_:_:)``
/// then writes them from the caller's thread (saving a wake-up of the loop thread per packet),
/// and the loop thread does all reading, keep-alive and the writing a full socket defers. So the
/// callbacks run on the loop thread, except `on_publish` (QoS 0) and `on_disconnect` after a
/// failed write, which may run on the caller's thread — always under the lock, so in order. The
/// events they queue reach the stream once the lock is released (``CallbackBridge/flush()``).
///
/// Lifetime: the loop keeps a strong reference while the socket is registered, so the public
/// client can be released at any time; ``close()`` destroys the handle wherever it runs.
final class MosquittoConnection: Sendable {
    struct State {
        /// `nil` once closed.
        var handle: OpaquePointer?
        /// The socket in the loop's `epoll` set, or `nil` when not connected.
        var socket: Int32?
        /// Whether `EPOLLOUT` is armed for `socket`.
        var isWriteArmed = false
        /// Whether libmosquitto's log goes to the bridge (from connect until the CONNACK).
        var isCapturingLog = false
        /// Whether data was read that no write or `TCP_QUICKACK` has acknowledged since (see
        /// ``acknowledgeReads()``).
        var hasUnacknowledgedReads = false
        /// Whether a handshake holds a slot of the loop's ``ConnectGate`` (from connect to CONNACK).
        var isHandshaking = false
        /// Whether reading stopped because ``CallbackBridge/readPressure`` is held (`EPOLLIN` is off).
        var isReadPaused = false
    }

    /// How many packets one readiness event reads before the loop turns to other sockets.
    private static let readBudget = 64

    let id: UInt64
    let loop: MosquittoEventLoop
    let bridge: CallbackBridge
    let broker: BrokerURL
    private let keepAliveSeconds: Int32
    private let bindAddress: String?
    private let usesTCPQuickAck: Bool
    private let state: Mutex<State>

    /// Creates and configures the handle; nothing touches the network until ``connect()``.
    init(configuration: MosquittoClient.Configuration, loop: MosquittoEventLoop) throws {
        let broker = configuration.broker
        try MosquittoLibrary.checkInitialized(broker: broker)
        let keepAlive = try Self.keepAliveSeconds(configuration.keepAlive, broker: broker)
        guard configuration.eventBufferSize > 0 else {
            throw MosquittoError(
                code: .invalidArgument, operation: .configure, broker: broker.description,
                detail: "eventBufferSize must be at least 1, not \(configuration.eventBufferSize)")
        }
        let bridge = CallbackBridge(
            broker: broker, protocolVersion: configuration.protocolVersion.level,
            bufferSize: configuration.eventBufferSize)
        let handle = try Self.makeHandle(configuration, context: bridge.context)
        self.id = loop.makeConnectionID()
        self.loop = loop
        self.bridge = bridge
        self.broker = broker
        self.keepAliveSeconds = keepAlive
        self.bindAddress = configuration.bindAddress
        self.usesTCPQuickAck = configuration.usesTCPQuickAck
        self.state = Mutex(State(handle: handle))
        bridge.readPressure.onRelief { [weak self] in
            guard let self else { return }
            self.loop.resumeReading(self)
        }
    }

    deinit {
        // Only reached when the loop no longer holds us, that is when the socket is not registered.
        state.withLock { state in
            if let handle = state.handle { mosquitto_destroy(handle) }
            state.handle = nil
        }
        bridge.finish()
    }

    private var brokerText: String { broker.description }

    // MARK: - Operations (caller's thread)

    /// Starts connecting: resolves the host (this blocks for a DNS lookup), opens a non-blocking
    /// socket, queues CONNECT and hands the socket to the loop.
    func connect() throws {
        defer { bridge.flush() }
        do {
            try startConnecting()
        } catch {
            loop.connectGate.leave(id)
            throw error
        }
    }

    /// Waits until the loop's ``ConnectGate`` lets this connection start a handshake; ``connect()``
    /// gives the slot back at the CONNACK, or when the attempt fails or the client is closed.
    func waitForHandshakeSlot() async {
        await loop.connectGate.enter(id)
    }

    private func startConnecting() throws {
        try state.withLock { state in
            guard let handle = state.handle else { throw closedError(.connect) }
            guard state.socket == nil else {
                throw MosquittoError(
                    code: .alreadyConnected, operation: .connect, broker: brokerText,
                    detail: "the client still has a connection")
            }
            bridge.prepareForConnect()
            CallbackBridge.startCapturingLog(on: handle)
            state.isCapturingLog = true
            errno = 0
            let result = withOptionalCString(bindAddress) { bindAddress in
                mosquitto_connect_bind_async(handle, broker.host, Int32(broker.port), keepAliveSeconds, bindAddress)
            }
            let errnoValue = errno
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
                // On loopback the TLS handshake can start, and fail, inside the connect call.
                throw bridge.explainingTLSFailure(
                    .library(result, errno: errnoValue, operation: .connect, broker: brokerText, usesTLS: broker.usesTLS))
            }
            SocketPair.close(in: handle)
            let socket = mosquitto_socket(handle)
            guard socket >= 0 else {
                throw MosquittoError.library(
                    MOSQ_ERR_NO_CONN.rawValue, operation: .connect, broker: brokerText, usesTLS: broker.usesTLS)
            }
            // libmosquitto opens the socket without close-on-exec; a child process the program starts
            // later (a broker, say) must not keep the connection open after we close it.
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            let isWritable = mosquitto_want_write(handle)
            try loop.register(self, socket: socket, writable: isWritable)
            state.socket = socket
            state.isWriteArmed = isWritable
            state.isHandshaking = true
            state.isReadPaused = false
        }
    }

    /// Ends the handshake's hold on the connect gate once the CONNACK arrived or the socket is gone;
    /// returns whether it did (the caller gives the slot back after releasing the lock).
    private func endHandshakeIfDone(_ state: inout State) -> Bool {
        guard state.isHandshaking, bridge.hasConnack || state.socket == nil else { return false }
        state.isHandshaking = false
        return true
    }

    /// Runs one libmosquitto call that queues a packet, checks its return code, and writes the
    /// packet right away (arming `EPOLLOUT` for what the socket does not take).
    ///
    /// - Parameter subject: What the call was about (`"topic 'a/#'"`), put in front of the error text;
    ///   evaluated only on failure.
    func perform<Value: Sendable>(
        _ operation: MosquittoError.Operation,
        subject: @autoclosure () -> String? = nil,
        _ body: (OpaquePointer) -> (result: Int32, value: Value)
    ) throws -> Value {
        defer { bridge.flush() }
        return try state.withLock { state in
            guard let handle = state.handle else { throw closedError(operation) }
            errno = 0
            let (result, value) = body(handle)
            let errnoValue = errno
            guard result == MOSQ_ERR_SUCCESS.rawValue else {
                let error = MosquittoError.library(
                    result, errno: errnoValue, operation: operation, broker: brokerText, usesTLS: broker.usesTLS)
                guard let subject = subject() else { throw error }
                throw MosquittoError(
                    code: error.code, operation: operation, broker: brokerText, libraryCode: result,
                    systemErrno: error.systemErrno, detail: "\(subject): \(error.detail)")
            }
            // Send at once from this thread instead of waking the event loop to do it: one thread
            // switch less per packet. What the socket does not take now, the loop writes on EPOLLOUT.
            if let socket = state.socket, mosquitto_want_write(handle) {
                _ = reconcile(handle, socket: socket, state: &state, outcome: writeQueued(handle, socket: socket, state: &state))
            }
            return value
        }
    }

    /// Sets or clears the will for the next CONNECT.
    func setWill(_ will: MosquittoClient.Will?) throws {
        try state.withLock { state in
            guard let handle = state.handle else { throw closedError(.setWill) }
            try Self.setWill(will, on: handle) { result, what, operation in
                guard result != MOSQ_ERR_SUCCESS.rawValue else { return }
                let error = MosquittoError.library(result, operation: operation, broker: brokerText)
                throw MosquittoError(
                    code: error.code, operation: operation, broker: brokerText, libraryCode: result,
                    detail: "\(what): \(error.detail)")
            }
        }
    }

    /// Closes the socket at once without DISCONNECT (so the broker publishes the will), destroys the
    /// handle and ends the event stream. Safe to call more than once, from any thread but the loop's
    /// callbacks.
    func close() {
        let didClose = state.withLock { state in
            guard let handle = state.handle else { return false }
            if let socket = state.socket { loop.deregister(socket: socket) }
            mosquitto_destroy(handle)
            state = State()
            return true
        }
        loop.connectGate.withdraw(id)
        loop.connectGate.leave(id)
        if didClose { bridge.finish() }
    }

    func closedError(_ operation: MosquittoError.Operation) -> MosquittoError {
        MosquittoError(code: .closed, operation: operation, broker: brokerText, detail: "the client has been closed")
    }

    // MARK: - Driving the socket (event loop thread)

    /// Handles one readiness event from `epoll`. Returns `false` when the connection left the loop.
    /// Called on the event loop thread.
    func service(events: UInt32) -> Bool {
        drive { handle, socket, state in
            let readMask = EPOLLIN.rawValue | EPOLLERR.rawValue | EPOLLHUP.rawValue | EPOLLRDHUP.rawValue
            // A socket that failed or hung up is read even while paused: that ends the connection.
            let isBroken = events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
            // During a TLS handshake only mosquitto_loop_read moves it on, even when the socket is writable.
            let reads =
                isBroken || (!state.isReadPaused && (events & readMask != 0 || (events & EPOLLOUT.rawValue != 0 && broker.usesTLS)))
            guard reads else { return (result: MOSQ_ERR_SUCCESS.rawValue, errno: 0) }
            return readAvailable(handle, socket: socket, state: &state, ignoringPressure: isBroken)
        }
    }

    /// Reads again after ``CallbackBridge/readPressure`` was released, unless it is held again.
    /// Returns `false` when the connection left the loop. Called on the event loop thread.
    func resumeReading() -> Bool {
        drive { handle, socket, state in
            guard state.isReadPaused, !bridge.readPressure.isHeld else { return (result: MOSQ_ERR_SUCCESS.rawValue, errno: 0) }
            state.isReadPaused = false
            loop.update(socket: socket, id: id, writable: state.isWriteArmed, readable: true)
            // TLS may hold decrypted bytes that epoll cannot see: read now rather than wait for EPOLLIN.
            return readAvailable(handle, socket: socket, state: &state, ignoringPressure: false)
        }
    }

    /// Runs libmosquitto's keep-alive check and sends what it queued. Returns `false` when the
    /// connection left the loop. Called on the event loop thread about once a second.
    func tick() -> Bool {
        drive { handle, _, _ in
            errno = 0
            return (result: mosquitto_loop_misc(handle), errno: errno)
        }
    }

    /// Runs `step` on the connected handle under the lock, then writes what libmosquitto queued and
    /// brings the state in line (``reconcile(_:socket:state:outcome:)``); after the lock, gives back
    /// the connect gate's slot when the handshake ended and hands the queued events to the reader.
    private func drive(
        _ step: (OpaquePointer, Int32, inout State) -> (result: Int32, errno: Int32)
    ) -> Bool {
        var handshakeEnded = false
        defer {
            if handshakeEnded { loop.connectGate.leave(id) }
            bridge.flush()
        }
        return state.withLock { state in
            defer { handshakeEnded = endHandshakeIfDone(&state) }
            guard let handle = state.handle, let socket = state.socket else { return false }
            var outcome = step(handle, socket, &state)
            if outcome.result == MOSQ_ERR_SUCCESS.rawValue {
                outcome = writeQueued(handle, socket: socket, state: &state)
            }
            return reconcile(handle, socket: socket, state: &state, outcome: outcome)
        }
    }

    /// Reads until the socket has nothing more (or the budget is spent: level-triggered `epoll`
    /// reports the rest), or until ``CallbackBridge/readPressure`` is held: then it turns `EPOLLIN`
    /// off until the pressure is released (``resumeReading()``). The loop calls
    /// ``acknowledgeReads()`` once the jobs these reads started have run.
    private func readAvailable(
        _ handle: OpaquePointer, socket: Int32, state: inout State, ignoringPressure: Bool
    ) -> (result: Int32, errno: Int32) {
        state.hasUnacknowledgedReads = usesTCPQuickAck
        for _ in 0..<Self.readBudget {
            // Only once connected: the CONNACK must be read for the agent to come online.
            if !ignoringPressure, bridge.readPressure.isHeld, bridge.hasConnack {
                state.isReadPaused = true
                loop.update(socket: socket, id: id, writable: state.isWriteArmed, readable: false)
                break
            }
            errno = 0
            let result = mosquitto_loop_read(handle, 1)
            let errnoValue = errno
            guard result == MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(handle) == socket else {
                return (result, errnoValue)
            }
            if errnoValue == EAGAIN || errnoValue == EWOULDBLOCK { break }
        }
        return (MOSQ_ERR_SUCCESS.rawValue, 0)
    }

    /// Acknowledges what the reads of this pass received when nothing was sent since: then the
    /// kernel would hold the ACK for up to 40 ms, and with the broker's Nagle algorithm that would
    /// hold back the broker's next packet to us. Called on the event loop thread after the jobs
    /// that the reads started have run. When something was written since the reads (a handler on
    /// the loop answered, libmosquitto sent a PUBACK), that segment carried the acknowledgement
    /// and nothing is done: a pure ACK segment would only cost both ends a trip through the
    /// network stack.
    ///
    /// `TCP_QUICKACK` with the value 2 sends the pending ACK and leaves the socket in delayed-ACK
    /// ("ping-pong") mode, where the kernel lets our next packet carry the acknowledgement of
    /// what arrives next. The value 1 would leave it in quick-ACK mode, and the kernel would send
    /// a pure ACK for every small packet as soon as it is read, answered or not.
    func acknowledgeReads() {
        state.withLock { state in
            guard state.hasUnacknowledgedReads, let socket = state.socket else { return }
            state.hasUnacknowledgedReads = false
            var sendPendingAck: Int32 = 2
            // Best effort: failing leaves the kernel's delayed ACK in place, nothing worse.
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_QUICKACK, &sendPendingAck, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Writes what libmosquitto has queued, as far as the socket takes it. A write carries the
    /// acknowledgement of every read before it (see ``acknowledgeReads()``).
    private func writeQueued(_ handle: OpaquePointer, socket: Int32, state: inout State) -> (result: Int32, errno: Int32) {
        guard mosquitto_socket(handle) == socket, mosquitto_want_write(handle) else {
            return (MOSQ_ERR_SUCCESS.rawValue, 0)
        }
        state.hasUnacknowledgedReads = false
        errno = 0
        let result = mosquitto_loop_write(handle, 1)
        return (result, errno)
    }

    /// Brings `state` in line with libmosquitto after a read or write: forgets a socket libmosquitto
    /// has closed (closing it removed it from `epoll`; the loop drops the connection at its next
    /// tick) and arms `EPOLLOUT` exactly while libmosquitto wants to write.
    private func reconcile(
        _ handle: OpaquePointer,
        socket: Int32,
        state: inout State,
        outcome: (result: Int32, errno: Int32)
    ) -> Bool {
        if state.isCapturingLog, bridge.hasConnack {
            CallbackBridge.stopCapturingLog(on: handle)
            state.isCapturingLog = false
        }
        guard mosquitto_socket(handle) == socket else {
            state.socket = nil
            state.isWriteArmed = false
            bridge.reportDisconnectIfNeeded(returnCode: outcome.result, errno: outcome.errno)
            return false
        }
        let wantsWrite = mosquitto_want_write(handle)
        if wantsWrite != state.isWriteArmed {
            loop.update(socket: socket, id: id, writable: wantsWrite, readable: !state.isReadPaused)
            state.isWriteArmed = wantsWrite
        }
        return true
    }
}

/// Calls `body` with a C string for `string`, or with `nil`.
func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) throws -> Result) rethrows -> Result
{
    guard let string else { return try body(nil) }
    return try string.withCString(body)
}
