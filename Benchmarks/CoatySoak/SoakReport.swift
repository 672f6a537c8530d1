import Agent
import Foundation

/// The figures of one soak, and whether it passed: nothing lost, repeated or reordered, and
/// resident memory flat after warm-up.
struct SoakReport {
    /// One memory and progress sample.
    struct Sample {
        var elapsed: Double
        var residentBytes: Int
        var sent: Int
        var received: Int
        /// Whether this is the sample taken once the subscriber caught up after the last publication.
        var isFinal = false

        var line: String {
            "t=\(Int(elapsed)) s sent=\(sent) received=\(received) rss=\(SoakReport.mebibytes(residentBytes))"
        }
    }

    let options: SoakOptions
    var measuredRate: Double?
    var rate = 0.0
    var elapsed = 0.0
    var sent = 0
    var received = 0
    var skipped = 0
    var late = 0
    var samples: [Sample] = []
    var publisherStatistics: AgentStatistics?
    var subscriberStatistics: AgentStatistics?

    init(options: SoakOptions) {
        self.options = options
    }

    /// Events that never arrived.
    var lost: Int { max(0, sent - (received - late)) }

    /// The first sample after a fifth of the run (warm-up: buffers and allocator pools fill first).
    var baseline: Sample? {
        samples.first { $0.elapsed >= options.duration.seconds / 5 } ?? samples.first
    }

    /// Resident memory growth from the baseline to the end, in bytes.
    var growth: Int { (samples.last?.residentBytes ?? 0) - (baseline?.residentBytes ?? 0) }

    /// Memory counts as flat when it grew by at most 8 MiB or 10 % after warm-up.
    var isMemoryFlat: Bool { growth <= max(8 << 20, (baseline?.residentBytes ?? 0) / 10) }

    var passed: Bool { lost == 0 && skipped == 0 && late == 0 && sent > 0 && isMemoryFlat }

    var text: String {
        """
        soak \(passed ? "PASSED" : "FAILED"): sent \(sent), received \(received), lost \(lost), skipped \(skipped), \
        late or repeated \(late); rss \(Self.mebibytes(baseline?.residentBytes ?? 0)) after warm-up, \
        \(Self.mebibytes(samples.last?.residentBytes ?? 0)) at the end (\(growth >= 0 ? "+" : "")\(Self.mebibytes(growth)))
        """
    }

    var markdown: String {
        var lines = [
            "| Figure | Value |", "| --- | --- |",
            "| Result | **\(passed ? "passed" : "failed")** |",
        ]
        if let measuredRate {
            lines.append("| Measured maximum rate (QoS 1, closed loop) | \(Int(measuredRate)) events/s |")
        }
        lines += [
            "| Soak rate | \(Int(rate)) events/s |",
            "| Duration | \(Int(elapsed.rounded())) s |",
            "| Published | \(sent) |",
            "| Received | \(received) |",
            "| Lost | \(lost) |",
            "| Out of order or repeated | \(late + skipped) |",
            "| Resident memory after warm-up (\(Int(baseline?.elapsed ?? 0)) s) | \(Self.mebibytes(baseline?.residentBytes ?? 0)) |",
            "| Resident memory at the end | \(Self.mebibytes(samples.last?.residentBytes ?? 0)) |",
            "| Largest resident memory | \(Self.mebibytes(samples.map(\.residentBytes).max() ?? 0)) |",
        ]
        for (name, statistics) in [("publisher", publisherStatistics), ("subscriber", subscriberStatistics)] {
            guard let statistics else { continue }
            lines.append(
                "| Counters of the \(name) | connections \(statistics.connections), received \(statistics.receivedMessages), "
                    + "dropped by observers \(statistics.droppedObserverEvents), "
                    + "rejected \(statistics.rejectedPayloads), dropped offline \(statistics.droppedOfflinePublications) |"
            )
        }
        lines.append("")
        lines.append(
            "Resident memory of the soak process (both agents), sampled every \(Int(options.sampleInterval.seconds)) s:"
        )
        lines.append("")
        lines.append("| Time | Published | Received | Resident memory |")
        lines.append("| ---: | ---: | ---: | ---: |")
        for sample in samples {
            lines.append(
                "| \(Int(sample.elapsed)) s\(sample.isFinal ? " (end)" : "") | \(sample.sent) | \(sample.received) | \(Self.mebibytes(sample.residentBytes)) |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
