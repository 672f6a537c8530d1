import Agent
import CoreTypes
import Foundation
import Synchronization

/// What the subscriber saw of a numbered stream: every number should arrive once, in order.
final class ReceivedNumbers: Sendable {
    struct Counts {
        /// Every delivery.
        var received = 0
        /// The next number expected.
        var next = 0
        /// Numbers skipped over (a later number arrived first).
        var skipped = 0
        /// Numbers that arrived after a later one (late or repeated).
        var late = 0
    }

    private let counts = Mutex(Counts())

    var snapshot: Counts { counts.withLock { $0 } }

    func record(_ number: Int) {
        counts.withLock { counts in
            counts.received += 1
            if number == counts.next {
                counts.next += 1
            } else if number > counts.next {
                counts.skipped += number - counts.next
                counts.next = number + 1
            } else {
                counts.late += 1
            }
        }
    }

    /// Reads numbered Channel events until the stream ends.
    func consume(_ events: EventStream<Received<Channel>>) async throws {
        for try await event in events {
            record(Int(event.event.objects.first?.name ?? "") ?? -1)
        }
    }
}

/// One soak: optional measurement of the maximum rate, then a steady run at the soak rate.
struct Soak {
    let options: SoakOptions
    let publisher: Agent
    let subscriber: Agent
    let clock = ContinuousClock()

    func run() async throws -> SoakReport {
        try await waitUntilOnline(publisher)
        try await waitUntilOnline(subscriber)
        var report = SoakReport(options: options)
        if let rate = options.rate {
            report.rate = rate
        } else {
            report.measuredRate = try await measureMaximumRate()
            report.rate = (report.measuredRate ?? 0) / 2
        }
        print("soak: \(Int(report.rate)) events/s at QoS 1 for \(Int(options.duration.seconds)) s")
        try await soak(at: report.rate, into: &report)
        report.publisherStatistics = publisher.statistics
        report.subscriberStatistics = subscriber.statistics
        return report
    }

    /// The highest rate the subscriber keeps up with: a closed loop with at most 2,000 events outstanding.
    private func measureMaximumRate() async throws -> Double {
        let numbers = ReceivedNumbers()
        let events = try await subscriber.observeChannel("measure")
        let receiving = Task { try await numbers.consume(events) }
        defer { receiving.cancel() }
        let start = clock.now
        var sent = 0
        while clock.now - start < options.measureDuration {
            if sent - numbers.snapshot.received < 2_000 {
                try publisher.publish(Self.event(sent, on: "measure"))
                sent += 1
            } else {
                try await Task.sleep(for: .microseconds(200))
            }
        }
        let received = numbers.snapshot.received
        let rate = Double(received) / (clock.now - start).seconds
        try await drain(numbers, sent: sent)
        print("measure: \(received) events in \(Int(options.measureDuration.seconds)) s, \(Int(rate)) events/s")
        return rate
    }

    /// Publishes at `rate` for the soak's duration, sampling resident memory, then waits for the rest.
    private func soak(at rate: Double, into report: inout SoakReport) async throws {
        let numbers = ReceivedNumbers()
        let events = try await subscriber.observeChannel("soak")
        let receiving = Task { try await numbers.consume(events) }
        defer { receiving.cancel() }
        let start = clock.now
        var sent = 0
        var nextSample = start
        while true {
            let now = clock.now
            if now >= nextSample {
                let counts = numbers.snapshot
                let sample = SoakReport.Sample(
                    elapsed: (now - start).seconds, residentBytes: Self.residentBytes(), sent: sent,
                    received: counts.received)
                report.samples.append(sample)
                print(sample.line)
                nextSample = nextSample + options.sampleInterval
            }
            let elapsed = now - start
            guard elapsed < options.duration else { break }
            let due = Int(elapsed.seconds * rate)
            while sent < due {
                try publisher.publish(Self.event(sent, on: "soak"))
                sent += 1
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        report.elapsed = (clock.now - start).seconds
        try await drain(numbers, sent: sent)
        let counts = numbers.snapshot
        report.sent = sent
        report.received = counts.received
        report.skipped = counts.skipped
        report.late = counts.late
        report.samples.append(
            SoakReport.Sample(
                elapsed: (clock.now - start).seconds, residentBytes: Self.residentBytes(), sent: sent,
                received: counts.received, isFinal: true))
    }

    /// Waits until `sent` events arrived, or 60 seconds without progress.
    private func drain(_ numbers: ReceivedNumbers, sent: Int) async throws {
        var last = numbers.snapshot.received
        var lastProgress = clock.now
        while numbers.snapshot.received < sent, clock.now - lastProgress < .seconds(60) {
            try await Task.sleep(for: .milliseconds(10))
            let received = numbers.snapshot.received
            if received != last {
                last = received
                lastProgress = clock.now
            }
        }
    }

    private func waitUntilOnline(_ agent: Agent) async throws {
        for await state in agent.connectionStates() where state == .online { return }
    }

    static func event(_ number: Int, on channel: String) -> Channel {
        Channel(id: channel, object: BaseObject(objectType: "com.example.SoakReading", name: "\(number)"))
    }

    /// The process's resident set size from /proc/self/status, in bytes (0 if unavailable).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
