import Foundation

/// What a figure aims at.
enum Target {
    /// ours / baseline must be at least this (throughput, speed).
    case ratioAtLeast(Double)
    /// ours / baseline must be at most this (latency, cost).
    case ratioAtMost(Double)
    /// ours must be at most this, in the figure's unit (memory).
    case valueAtMost(Double)
    /// ours must be below this, in the figure's unit.
    case valueBelow(Double)

    var text: String {
        switch self {
        case .ratioAtLeast(let value): "≥ \(Report.format(value))×"
        case .ratioAtMost(let value): "≤ \(Report.format(value))×"
        case .valueAtMost(let value): "≤ \(Report.format(value))"
        case .valueBelow(let value): "< \(Report.format(value))"
        }
    }
}

/// One reported figure: our samples and the baseline's, taken in alternation in the same run.
struct Figure {
    var section: String
    var name: String
    var unit: String
    /// One value per repetition (or per round, for latencies).
    var ours: [Double]
    var baseline: [Double]
    var baselineName: String
    var target: Target?
    var note: String = ""
    /// Ratios taken per repetition (ours_i / baseline_i); when empty, the ratio of the medians.
    var pairedRatios: [Double] = []

    var oursMedian: Double { Samples(ours).median }
    var baselineMedian: Double { Samples(baseline).median }

    var ratio: Double? {
        if !pairedRatios.isEmpty { return Samples(pairedRatios).median }
        guard !baseline.isEmpty, baselineMedian != 0 else { return nil }
        return oursMedian / baselineMedian
    }

    /// Whether the target is met (`nil` without target, or without the numbers it needs).
    var meetsTarget: Bool? {
        guard let target else { return nil }
        switch target {
        case .ratioAtLeast(let value): return ratio.map { $0 >= value }
        case .ratioAtMost(let value): return ratio.map { $0 <= value }
        case .valueAtMost(let value): return oursMedian <= value
        case .valueBelow(let value): return oursMedian < value
        }
    }
}

/// Collects figures, prints each as it comes, and writes the markdown report.
final class Report {
    private(set) var figures: [Figure] = []
    private(set) var notes: [String] = []
    let started = Date()

    func add(_ figure: Figure) {
        figures.append(figure)
        let ratio = figure.ratio.map { String(format: "%.2f×", $0) } ?? "–"
        let verdict = figure.meetsTarget.map { $0 ? "meets" : "MISSES" } ?? ""
        print(
            "[\(figure.section)] \(figure.name): \(Report.format(figure.oursMedian)) \(figure.unit)"
                + (figure.baseline.isEmpty ? "" : " vs \(Report.format(figure.baselineMedian)) (\(figure.baselineName))")
                + " ratio \(ratio) \(figure.target.map { "target \($0.text) \(verdict)" } ?? "") \(figure.note)")
        fflush(nil)
    }

    func note(_ text: String) {
        notes.append(text)
        print("note: \(text)")
    }

    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        if magnitude >= 10_000 { return String(format: "%.0f", value).withThousandsSeparators }
        if magnitude >= 100 { return String(format: "%.0f", value) }
        if magnitude >= 10 { return String(format: "%.1f", value) }
        if magnitude >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3f", value)
    }

    /// The report as markdown: the machine, then one table per section.
    func markdown(machine: [String], preamble: String) -> String {
        var lines = [preamble, "", "## Machine and run", ""]
        lines += machine.map { "- \($0)" }
        lines.append("")
        var sections: [String] = []
        for figure in figures where !sections.contains(figure.section) { sections.append(figure.section) }
        for section in sections {
            lines.append("## \(section)")
            lines.append("")
            lines.append("| figure | ours | baseline | ratio | target | met |")
            lines.append("| --- | ---: | ---: | ---: | --- | --- |")
            for figure in figures where figure.section == section {
                let ours = "\(Report.format(figure.oursMedian)) \(figure.unit)"
                let baseline =
                    figure.baseline.isEmpty
                    ? "–" : "\(Report.format(figure.baselineMedian)) \(figure.unit) (\(figure.baselineName))"
                let ratio = figure.ratio.map { String(format: "%.2f×", $0) } ?? "–"
                let met = figure.meetsTarget.map { $0 ? "yes" : "**no**" } ?? ""
                let name = figure.note.isEmpty ? figure.name : "\(figure.name) — \(figure.note)"
                lines.append("| \(name) | \(ours) | \(baseline) | \(ratio) | \(figure.target?.text ?? "") | \(met) |")
            }
            lines.append("")
        }
        if !notes.isEmpty {
            lines.append("## Notes from this run")
            lines.append("")
            lines += notes.map { "- \($0)" }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate var withThousandsSeparators: String {
        let negative = hasPrefix("-")
        let digits = Array(negative ? dropFirst() : Substring(self))
        var out: [Character] = []
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (negative ? "-" : "") + String(out)
    }
}
