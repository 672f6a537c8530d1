import Agent

/// The one line on stderr that says what an agent of this process dropped, if it dropped anything:
/// events for observers that chose to drop when full, publications the full offline queue let go,
/// log records the remote-logging buffer let go.
enum LossReport {
    /// The line for `statistics` and `droppedLogs`, or `nil` when nothing was dropped.
    static func line(for statistics: AgentStatistics, droppedLogs: Int = 0) -> String? {
        var parts: [String] = []
        if statistics.droppedObserverEvents > 0 {
            parts.append("\(statistics.droppedObserverEvents) events for observers whose buffer was full")
        }
        if statistics.droppedOfflinePublications > 0 {
            parts.append("\(statistics.droppedOfflinePublications) publications made while offline (the offline queue was full)")
        }
        if droppedLogs > 0 { parts.append("\(droppedLogs) log records for remote logging (its buffer was full)") }
        guard !parts.isEmpty else { return nil }
        return "agent-runner: dropped " + parts.joined(separator: " and ")
    }

    /// Writes the line for `agent` (and its log publisher's drops) on stderr, if there is one.
    static func report(_ agent: Agent, droppedLogs: Int = 0) {
        if let line = line(for: agent.statistics, droppedLogs: droppedLogs) { Output.error(line) }
    }
}
