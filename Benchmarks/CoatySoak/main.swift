import Agent
import CoreTypes
import Foundation

// A long run between two agents on one broker at QoS 1: a publisher sends numbered Channel events at
// a steady rate, a subscriber checks that every number arrives once and in order, and the process's
// resident memory is sampled. scripts/soak.sh starts the broker, runs this and writes the figures to
// docs/reliability.md.
//
// CoatySoak --broker mqtt://127.0.0.1:1883 [--duration 600] [--rate N | --measure 10] [--markdown FILE]
//
// Without --rate it first measures the highest rate the subscriber keeps up with (a closed loop with
// at most 2,000 events outstanding, for --measure seconds) and then soaks at half of it.

let options = try SoakOptions(CommandLine.arguments.dropFirst())
let publisher = try Agent(configuration: SoakOptions.agentConfiguration("Soak publisher", options: options))
let subscriber = try Agent(configuration: SoakOptions.agentConfiguration("Soak subscriber", options: options))

let report = try await withThrowingTaskGroup(of: SoakReport?.self) { group in
    group.addTask {
        try await publisher.run()
        return nil
    }
    group.addTask {
        try await subscriber.run()
        return nil
    }
    group.addTask {
        let report = try await Soak(options: options, publisher: publisher, subscriber: subscriber).run()
        return report
    }
    var report: SoakReport?
    while let result = try await group.next() {
        if let result {
            report = result
            group.cancelAll()  // stops both agents gracefully
        }
    }
    guard let report else { throw SoakOptions.Failure(description: "the soak ended without a report") }
    return report
}

print(report.text)
if let path = options.markdownPath {
    try report.markdown.write(toFile: path, atomically: true, encoding: .utf8)
}
exit(report.passed ? 0 : 1)
