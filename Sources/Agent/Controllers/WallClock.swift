import Glibc

/// The wall-clock time as Coaty objects carry it, for the timestamps controllers write.
package enum WallClock {
    /// The current time in whole milliseconds since the Unix epoch, as JavaScript's `Date.now()`.
    package static func millisecondsSinceEpoch() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(Int(spec.tv_sec) * 1000 + Int(spec.tv_nsec) / 1_000_000)
    }
}
