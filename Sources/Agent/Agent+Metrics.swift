import Synchronization

extension Agent {
    /// How often the fullest observer buffer is reported (`coaty_observer_buffer_max_fill`).
    static let observerBufferSampleInterval = Duration.seconds(1)

    /// Reports the fullest observer buffer once per interval while the agent's task runs.
    ///
    /// Sampled instead of reported per event, so the routing path only keeps each buffer's peak
    /// under the lock it holds anyway; each sample takes the peak since the one before.
    func sampleObserverBuffers(in group: inout DiscardingTaskGroup) {
        group.addTask(executorPreference: globalConcurrentExecutor) {
            while true {
                do {
                    try await Task.sleep(for: Self.observerBufferSampleInterval)
                } catch {
                    return
                }
                self.reportObserverBufferFill()
            }
        }
    }

    /// Reports the largest peak fill of the agent's observer buffers since the last report.
    func reportObserverBufferFill() {
        let buffers = state.withLock { Array($0.observerBuffers.values) }
        counters.metrics.observerBufferMaxFill(buffers.reduce(0) { max($0, $1()) })
    }
}
