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
        for _ in 0..<200 { try operation() }
        var iterations = 0
        var batch = 100
        let start = clock.now
        var elapsed = Duration.zero
        while elapsed < budget {
            for _ in 0..<batch { try operation() }
            iterations += batch
            elapsed = clock.now - start
            if elapsed < budget / 10 { batch *= 2 }
        }
        return Double(iterations) / elapsed.seconds
    }
}

/// A benchmark measured against a baseline in the same run, in alternation.
struct Comparison {
    let section: String
    let title: String
    let ours: Benchmark
    let baseline: Benchmark
    let baselineName: String
    var target: Target? = nil
    /// Report the time per operation in this unit instead of operations per second.
    var reportsTimePerOperation = false

    /// Runs `repeats` alternating slices of `budget / repeats` each and reports the medians and the
    /// median of the per-slice ratios.
    func run(budget: Duration, repeats: Int) throws -> Figure {
        var ours: [Double] = []
        var baseline: [Double] = []
        for _ in 0..<repeats {
            baseline.append(try self.baseline.run(budget: budget / repeats / 2))
            ours.append(try self.ours.run(budget: budget / repeats / 2))
        }
        if reportsTimePerOperation {
            let oursNanoseconds = ours.map { 1e9 / $0 }
            let baselineNanoseconds = baseline.map { 1e9 / $0 }
            return Figure(
                section: section, name: title, unit: "ns/op", ours: oursNanoseconds, baseline: baselineNanoseconds,
                baselineName: baselineName, target: target,
                pairedRatios: zip(oursNanoseconds, baselineNanoseconds).map { $0 / $1 })
        }
        return Figure(
            section: section, name: title, unit: "op/s", ours: ours, baseline: baseline, baselineName: baselineName,
            target: target, pairedRatios: zip(ours, baseline).map { $0 / $1 })
    }
}
