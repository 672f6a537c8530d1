import Glibc
import Synchronization

/// Several ``MosquittoEventLoop``s, each on its own thread, over which clients are spread
/// round-robin, so that the agents of a process use more than one core for their sockets.
///
/// Each client stays on the loop it was given for its whole life: its reads, callbacks, keep-alive,
/// the jobs of tasks that prefer its agent's executor and its request's busy polling all happen on
/// that loop. The loops of a group share one ``ConnectGate``, because they share the broker's
/// listen backlog.
///
/// ```swift
/// let client = try MosquittoClient(configuration: configuration)   // MosquittoEventLoopGroup.shared.next()
/// ```
package final class MosquittoEventLoopGroup: Sendable {
    /// The environment variable that sets how many loops ``shared`` has (a positive number).
    package static let loopCountVariable = "COATY_EVENT_LOOPS"

    private static let sharedGroup = Result { try MosquittoEventLoopGroup(count: defaultLoopCount, isShared: true) }

    /// The group every client uses unless it is given a loop: one loop per online CPU but one, or
    /// `COATY_EVENT_LOOPS` loops; created on first use, never shut down.
    ///
    /// - Throws: ``MosquittoError`` if a loop's `epoll` set, `eventfd` or thread could not be created.
    package static var shared: MosquittoEventLoopGroup {
        get throws { try sharedGroup.get() }
    }

    /// The group's loops, in the order ``next()`` hands them out.
    package let loops: [MosquittoEventLoop]
    private let isShared: Bool
    private let nextIndex = Atomic<Int>(0)

    /// Starts `count` loops (at least one), each on a new thread.
    ///
    /// - Parameters:
    ///   - count: How many loops; ``defaultLoopCount`` is what ``shared`` uses.
    ///   - handshakeLease: How long a handshake holds its slot of the shared ``ConnectGate`` at most.
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.system` if a system call fails.
    package convenience init(count: Int, handshakeLease: Duration = .seconds(5)) throws {
        try self.init(count: count, isShared: false, handshakeLease: handshakeLease)
    }

    private init(count: Int, isShared: Bool, handshakeLease: Duration = .seconds(5)) throws {
        let gate = ConnectGate(limit: MosquittoEventLoop.handshakesInFlight, lease: handshakeLease)
        var loops: [MosquittoEventLoop] = []
        do {
            for _ in 0..<max(1, count) {
                loops.append(try MosquittoEventLoop(isShared: isShared, connectGate: gate))
            }
        } catch {
            loops.forEach { $0.stop() }
            throw error
        }
        self.loops = loops
        self.isShared = isShared
    }

    /// The loop for the next client: each loop in turn.
    package func next() -> MosquittoEventLoop {
        let index = nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[Int(UInt(bitPattern: index) % UInt(loops.count))]
    }

    /// Stops every loop (see ``MosquittoEventLoop/shutdown()``); does nothing on ``shared``.
    package func shutdown() {
        guard !isShared else { return }
        loops.forEach { $0.shutdown() }
    }

    /// `COATY_EVENT_LOOPS` when it is a positive number, else one less than the online CPUs (at
    /// least one): the tasks that consume the events, and often a broker, need a core too.
    package static var defaultLoopCount: Int {
        if let text = getenv(loopCountVariable), let count = Int(String(cString: text)), count > 0 {
            return count
        }
        return max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)
    }
}
