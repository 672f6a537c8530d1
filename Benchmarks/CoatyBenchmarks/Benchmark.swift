import Foundation

/// One measured operation: runs a closure repeatedly for a time budget and reports operations per second.
struct Benchmark {
    let name: String
    let operation: () throws -> Void

    init(_ name: String, _ operation: @escaping () throws -> Void) {
        self.name = name
        self.operation = operation
    }

    /// Runs a short warm-up, then batches of the operation until `budget` has passed; returns operations per second.
    func run(budget: Duration = .seconds(1)) throws -> Double {
        let clock = ContinuousClock()
        for _ in 0..<1_000 { try operation() }
        var iterations = 0
        var batch = 1_000
        let start = clock.now
        var elapsed = Duration.zero
        while elapsed < budget {
            for _ in 0..<batch { try operation() }
            iterations += batch
            elapsed = clock.now - start
            if elapsed < budget / 10 { batch *= 2 }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(iterations) / seconds
    }
}

/// A benchmark measured against a baseline in the same run; the ratio is ours / baseline (higher is better).
struct Comparison {
    let title: String
    let ours: Benchmark
    let baseline: Benchmark

    struct Row {
        let title: String
        let ours: Double
        let baseline: Double
        var ratio: Double { ours / baseline }
    }

    func run(budget: Duration) throws -> Row {
        // Interleave the two so that machine noise hits both alike; keep the best of each.
        var best = (ours: 0.0, baseline: 0.0)
        for _ in 0..<3 {
            best.baseline = max(best.baseline, try baseline.run(budget: budget / 3))
            best.ours = max(best.ours, try ours.run(budget: budget / 3))
        }
        return Row(title: title, ours: best.ours, baseline: best.baseline)
    }
}

enum Table {
    static func print(_ rows: [Comparison.Row], baselines: [String]) {
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        func rate(_ value: Double) -> String { String(format: "%12.0f", value) }
        Swift.print(pad("benchmark", 44) + pad("ours ops/s", 14) + pad("baseline ops/s", 16) + "ratio")
        for (row, baseline) in zip(rows, baselines) {
            Swift.print(
                pad(row.title, 44) + rate(row.ours) + "  " + rate(row.baseline) + "    "
                    + String(format: "%.2fx", row.ratio) + "  (vs \(baseline))")
        }
    }
}
