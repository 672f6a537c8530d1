internal import CMosquitto
import CoreTypes
import Glibc
import Synchronization

/// Makes the correlation ids of an agent's requests: lowercase UUID v4s, as ``ObjectID/make()``,
/// from the system's random source, drawn 512 bytes at a time.
///
/// `SystemRandomNumberGenerator` asks the kernel for every 8 bytes; drawing in bulk makes 32 ids
/// share one `getrandom` system call.
final class CorrelationIDs: Sendable {
    private let pool = Mutex(RandomPool())
    /// Makes the ids instead of the random source: for tests that replay a capture whose ids were
    /// made by a counter.
    private let override: (@Sendable () -> String)?

    init(making override: (@Sendable () -> String)? = nil) {
        self.override = override
    }

    /// A new correlation id.
    func make() -> String {
        if let override { return override() }
        return pool.withLock { ObjectID.make(using: &$0) }
    }
}

/// Random words from the kernel (`getrandom`), fetched in blocks.
struct RandomPool: RandomNumberGenerator {
    /// How many words one refill fetches.
    static let blockWords = 64

    /// Empty until the first call: an agent that never requests never allocates the block.
    private var words: [UInt64] = []
    /// How many of `words` have been handed out; all of them at first, so the first call fills the block.
    private var used = 0

    mutating func next() -> UInt64 {
        if used == words.count { refill() }
        defer { used += 1 }
        return words[used]
    }

    /// Fills the block again in place.
    private mutating func refill() {
        used = 0
        if words.isEmpty { words = [UInt64](repeating: 0, count: Self.blockWords) }
        let filled = words.withUnsafeMutableBytes { bytes -> Bool in
            guard let base = bytes.baseAddress else { return false }
            var offset = 0
            while offset < bytes.count {
                let count = getrandom(base + offset, bytes.count - offset, 0)
                if count > 0 {
                    offset += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
        // getrandom only fails on kernels older than 3.17; the standard library has its fallbacks.
        if !filled {
            var system = SystemRandomNumberGenerator()
            for index in words.indices { words[index] = system.next() }
        }
    }
}
