internal import CMosquitto
import Glibc

/// Closes the socket pair libmosquitto opens in `mosquitto_new` and again in every connect, to
/// wake the `select()` of `mosquitto_loop`, which this package never runs.
///
/// Nothing reads the pair, yet libmosquitto writes a byte to it for every packet it queues (a
/// failing system call once the pair is full), and it costs two descriptors a client: 10,000
/// agents in one process would need 30,000. The public API has no way to turn it off, so this
/// finds the pair's descriptors where every libmosquitto from 1.4 to 2.0 keeps them, right after
/// the socket at the start of `struct mosquitto`, and closes them only when both are what the pair
/// must be; otherwise it leaves them, which costs only the descriptors.
enum SocketPair {
    /// libmosquitto sets a closed descriptor to this, and then neither writes nor closes it.
    private static let invalid: Int32 = -1
    private static let readerOffset = MemoryLayout<Int32>.size
    private static let writerOffset = 2 * MemoryLayout<Int32>.size

    /// Whether this libmosquitto's `struct mosquitto` is known to start with `sock, sockpairR, sockpairW`.
    private static let isKnownLayout: Bool = {
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        mosquitto_lib_version(&major, &minor, &revision)
        return major == 2 && minor == 0 || major == 1 && minor >= 4
    }()

    /// Closes `handle`'s socket pair if it can be found for certain. Call it under the connection's
    /// lock, right after `mosquitto_new` or a connect call.
    static func close(in handle: OpaquePointer) {
        guard isKnownLayout else { return }
        let fields = UnsafeMutableRawPointer(handle)
        guard fields.load(as: Int32.self) == mosquitto_socket(handle) else { return }
        let reader = fields.load(fromByteOffset: readerOffset, as: Int32.self)
        let writer = fields.load(fromByteOffset: writerOffset, as: Int32.self)
        guard reader != writer, isUnnamedUnixStream(reader), isUnnamedUnixStream(writer) else { return }
        fields.storeBytes(of: invalid, toByteOffset: readerOffset, as: Int32.self)
        fields.storeBytes(of: invalid, toByteOffset: writerOffset, as: Int32.self)
        _ = Glibc.close(reader)
        _ = Glibc.close(writer)
    }

    /// Whether `descriptor` is an unnamed local stream socket, as each end of a `socketpair` is.
    private static func isUnnamedUnixStream(_ descriptor: Int32) -> Bool {
        guard descriptor > 2 else { return false }
        var type: Int32 = 0
        var typeLength = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &typeLength) == 0,
            type == Int32(SOCK_STREAM.rawValue)
        else { return false }
        var address = sockaddr_un()
        var addressLength = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &addressLength) }
        }
        return named == 0 && address.sun_family == sa_family_t(AF_UNIX)
            && Int(addressLength) == MemoryLayout<sa_family_t>.size
    }
}
