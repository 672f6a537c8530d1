import Agent

/// The one line on stderr that says what an agent of this process dropped, if it dropped anything:
/// events for observers that chose to drop when full, publications the full offline queue let go.
enum LossReport {
    /// The line for `statistics`, or `nil` when nothing was dropped.
    static func line(for statistics: AgentStatistics) -> String? {
        var parts: [String] = []
        if statistics.droppedObserverEvents > 0 {
            parts.append("\(statistics.droppedObserverEvents) events for observers whose buffer was full")
        }
        if statistics.droppedOfflinePublications > 0 {
            parts.append("\(statistics.droppedOfflinePublications) publications made while offline (the offline queue was full)")
        }
        guard !parts.isEmpty else { return nil }
        return "agent-runner: dropped " + parts.joined(separator: " and ")
    }

    /// Writes the line for `agent` on stderr, if there is one.
    static func report(_ agent: Agent) {
        if let line = line(for: agent.statistics) { Output.error(line) }
    }
}
