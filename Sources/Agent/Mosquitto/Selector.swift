internal import CMosquitto
import Glibc

/// The system calls of an event loop and nothing else: an `epoll` set of sockets, each known by an
/// id, and an `eventfd` that wakes a waiting ``wait(into:capacity:timeoutMilliseconds:)``.
///
/// Safe from any thread (the kernel serialises `epoll_ctl` and `eventfd_write`); only the loop's
/// thread waits.
final class Selector: Sendable {
    /// The id ``wait(into:capacity:timeoutMilliseconds:)`` reports for the wake-up; sockets use others.
    static let wakeID: UInt64 = 0

    private let epollFD: Int32
    private let wakeFD: Int32

    /// Creates the `epoll` set and the wake-up `eventfd`.
    ///
    /// - Throws: ``MosquittoError`` with code `MosquittoError.Code.system` if a system call fails.
    init() throws {
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else {
            throw MosquittoError.system("epoll_create1", errno: errno, operation: .eventLoop, broker: nil)
        }
        let wakeFD = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard wakeFD >= 0 else {
            let error = MosquittoError.system("eventfd", errno: errno, operation: .eventLoop, broker: nil)
            Glibc.close(epollFD)
            throw error
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = Self.wakeID
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            let error = MosquittoError.system("epoll_ctl(ADD eventfd)", errno: errno, operation: .eventLoop, broker: nil)
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw error
        }
        self.epollFD = epollFD
        self.wakeFD = wakeFD
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(epollFD)
    }

    /// Adds `socket` as `id`, watched for reading and, if `writable`, writing; returns `errno` on failure.
    func register(socket: Int32, id: UInt64, writable: Bool) -> Int32? {
        var event = Self.event(id: id, writable: writable, readable: true)
        return epoll_ctl(epollFD, EPOLL_CTL_ADD, socket, &event) == 0 ? nil : errno
    }

    /// Sets what a registered socket is watched for: writing (`EPOLLOUT`) and reading (`EPOLLIN`).
    func modify(socket: Int32, id: UInt64, writable: Bool, readable: Bool) {
        var event = Self.event(id: id, writable: writable, readable: readable)
        // Fails only if the socket is not registered, and then there is nothing to modify.
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, socket, &event)
    }

    /// Removes a socket that is still open (a closed one has left the set by itself).
    func deregister(socket: Int32) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, socket, nil)
    }

    /// Waits until a socket is ready, the selector is woken, or `timeoutMilliseconds` pass (0:
    /// look and return); writes up to `capacity` events to `events` and returns how many.
    func wait(into events: UnsafeMutablePointer<epoll_event>, capacity: Int32, timeoutMilliseconds: Int32) -> Int {
        Int(max(0, epoll_wait(epollFD, events, capacity, timeoutMilliseconds)))
    }

    /// Makes a waiting (or the next) ``wait(into:capacity:timeoutMilliseconds:)`` return.
    func wake() {
        // Fails only if the counter would overflow, and then the loop is awake anyway.
        _ = eventfd_write(wakeFD, 1)
    }

    /// Resets the wake-up after ``wait(into:capacity:timeoutMilliseconds:)`` reported it.
    func consumeWake() {
        var value: eventfd_t = 0
        _ = eventfd_read(wakeFD, &value)
    }

    private static func event(id: UInt64, writable: Bool, readable: Bool) -> epoll_event {
        var event = epoll_event()
        event.events = (readable ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = id
        return event
    }
}
