/// Yields until `condition` holds, for a state another task reaches without an event to wait on.
///
/// - Throws: `CancellationError` when the test is cancelled first (its time limit), so a
///   condition that never comes fails that test instead of spinning and hanging the whole run.
package func yieldUntil(_ condition: () -> Bool) async throws {
    while !condition() {
        try Task.checkCancellation()
        await Task.yield()
    }
}
