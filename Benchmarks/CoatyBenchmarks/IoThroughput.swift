import Agent
import CoreTypes
import Foundation

/// B7: IO values from an IO source (a child process) to an IO actor (this process), associated
/// by an Associate event as a router sends it, each value published with
/// `Agent.publishIoValue(_:from:)` and received through `Agent.observeIoValue(ofActor:_:)`; against
/// the C pub→sub baseline sending the same MQTT messages (one per value, the same size).
enum IoThroughput {
    static let context = "bench"
    static let sourceID = "7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
    static let actorID = "2a4c6e8a-0b1d-4e3f-a5b7-c9d1e3f5a7b9"
    static let value = IoValue.json(["celsius": 21.5, "sensor": "hall-3"])

    static func run(_ settings: Settings, report: Report) async throws {
        let count = settings.throughputCount
        let size = value.payload.count
        var baseline: [Double] = []
        var ours: [Double] = []
        var losses: [String] = []
        for _ in 0..<settings.repeats {
            let c = try await runBaseline(
                settings.baselinePath,
                ["throughput", "--port", settings.defaultBroker.port, "--count", "\(count)", "--size", "\(size)"])
            baseline.append(c["rate"] ?? .nan)
            let (rate, received) = try await measure(broker: settings.defaultBroker.url, count: count)
            ours.append(rate)
            if received != count { losses.append("received \(received) of \(count)") }
        }
        report.add(
            Figure(
                section: "B7 IO values", name: "IoValue of \(size) bytes, source → actor on an associated route, QoS 0",
                unit: "values/s", ours: ours, baseline: baseline, baselineName: "C pub→sub, the same messages",
                target: .ratioAtLeast(0.8),
                note: losses.isEmpty ? "\(count) per run, none lost" : "LOSS: \(losses.joined(separator: "; "))",
                pairedRatios: zip(ours, baseline).map { $0 / $1 }))
    }

    /// One run: the source child publishes `count` values once associated; this process counts them.
    static func measure(broker: String, count: Int) async throws -> (rate: Double, received: Int) {
        let actor = IoActor(objectID: actorID, name: "B7 actor", valueType: "com.example.Reading")
        let subscriber = try await RunningAgent.start("B7 actor", broker: broker) {
            $0.ioNodes = [IoNode(name: context, ioActors: [actor])]
            $0.inboundBufferSize = count + 1000
            $0.observerBufferSize = count + 1000
        }
        let peer = try ChildProcess.peer("iosource", ["--broker", broker, "--count", "\(count)"])
        _ = try await peer.expect("joined")
        let clock = ContinuousClock()
        let progress = Progress()
        let (associated, associatedSignal) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var received = 0
            do {
                try await subscriber.agent.observeIoState(of: actorID) { states in
                    try await subscriber.agent.observeIoValue(ofActor: actorID) { values in
                        for try await state in states where state.hasAssociations { break }
                        associatedSignal.finish()
                        for try await _ in values {
                            received += 1
                            progress.record(received, at: clock.now)
                            if received == count { break }
                        }
                    }
                }
            } catch {}
            return received
        }
        try subscriber.agent.publish(
            Associate(
                ioContextName: context, ioSourceID: sourceID, ioActorID: actorID,
                associatingRoute: subscriber.agent.ioRoute(forIoSource: sourceID)))
        for await _ in associated {}
        _ = try await peer.expect("ready")
        let start = clock.now
        peer.send("go")
        await progress.waitUntilStalled(orReached: count, stall: .seconds(3), consumer: consumer)
        let received = await consumer.value
        let last = progress.lastInstant ?? clock.now
        peer.send("done")
        await peer.wait()
        await subscriber.stop()
        return (Double(received) / start.duration(to: last).seconds, received)
    }

    /// The source child: joins with the IO source, waits for its association, then publishes
    /// `count` values when told "go".
    static func sourcePeer(broker: String, count: Int) async throws {
        let source = IoSource(objectID: sourceID, name: "B7 source", valueType: "com.example.Reading")
        let running = try await RunningAgent.start("B7 source", broker: broker) {
            $0.ioNodes = [IoNode(name: context, ioSources: [source])]
        }
        try await running.agent.observeIoState(of: sourceID) { states in
            tell("joined")
            for try await state in states where state.hasAssociations { break }
        }
        tell("ready")
        _ = await readStdinLine()
        for _ in 0..<count { try running.agent.publishIoValue(value, from: sourceID) }
        tell("sent")
        _ = await readStdinLine()
        await running.stop()
    }
}
