import CoatyStorage
import Logging
import ServiceLifecycle

/// Writes again while the database fails (`StorageError.Code.databaseFailed`: a PostgreSQL
/// server restarting, a full disk), after a delay that doubles from 100 ms up to `maxDelay`,
/// with a warning each time, so a controller that records never skips what it could not store.
struct WriteRetry: Sendable {
    let clock: any Clock<Duration>
    let maxDelay: Duration
    let logger: Logger

    /// Runs `write` until it succeeds; false when the container stopped gracefully before it
    /// did (then nothing was written).
    ///
    /// - Throws: The first error of `write` that is not a database failure.
    func run(_ what: String, _ write: () async throws -> Void) async throws -> Bool {
        var delay = Duration.milliseconds(100)
        var failures = 0
        while true {
            do {
                try await write()
                if failures > 0 {
                    logger.notice("Writing again: the database accepted \(what)", metadata: ["attempts": "\(failures + 1)"])
                }
                return true
            } catch let error as StorageError where error.code == .databaseFailed {
                failures += 1
                logger.warning(
                    "Cannot store \(what): \(error.detail); trying again in \(delay) (later events wait)",
                    metadata: ["attempts": "\(failures)"])
                do {
                    let wait = delay
                    try await cancelWhenGracefulShutdown { try await clock.sleep(for: wait) }
                } catch {
                    logger.error("Stopped while the database failed: \(what) was not stored")
                    return false
                }
                delay = min(delay * 2, maxDelay)
            }
        }
    }
}
