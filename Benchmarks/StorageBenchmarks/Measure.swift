import Foundation

/// Timing, memory and the figures printed.
enum Measure {
    /// Runs `body` and returns its result with the seconds it took.
    static func seconds<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows
        -> (T, Double)
    {
        let start = ContinuousClock.now
        let result = try await body()
        let elapsed = ContinuousClock.now - start
        let (whole, fraction) = elapsed.components
        return (result, Double(whole) + Double(fraction) / 1e18)
    }

    /// The process's resident memory in bytes (/proc/self/statm).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The `fraction` quantile of `values` (nearest rank).
    static func quantile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// `1234567` as "1,234,567".
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%.2f ms", seconds * 1000)
    }
}
