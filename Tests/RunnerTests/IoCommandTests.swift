import Agent
import CoreTypes
import Foundation
import Glibc
import Testing
import TestSupport

/// `io source` and `io actor` with a router from `run --config`, as processes on a real broker.
@Suite(.timeLimit(.minutes(1)))
struct IoCommandTests {
    static let routerYAML = """
        name: Router
        controllers:
          BasicIoRouter: { ioContext: { name: kitchen } }
        """

    /// The next JSON line of `process` that `isWanted` accepts, or `nil` at the end of its output.
    static func next(_ process: RunnerProcess, where isWanted: (JSONValue) -> Bool) async -> JSONValue? {
        while let line = await process.nextLine() {
            if let json = try? JSONValue(parsing: Array(line.utf8)), isWanted(json) { return json }
        }
        return nil
    }

    @Test func aThousandLinesArriveInOrderAndAKilledSourceIsDisassociated() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(TestIDs.make())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let routerFile = directory.appendingPathComponent("router.yaml")
        try Self.routerYAML.write(to: routerFile, atomically: true, encoding: .utf8)
        try await TestBroker.withBroker { broker in
            let url = broker.url.description
            let actorID = TestIDs.make()
            let sourceID = TestIDs.make()
            let common = ["--broker", url, "--context", "kitchen", "--value-type", "number[Celsius]"]
            let router = try RunnerProcess.start(["run", "--config", routerFile.path, "--broker", url])
            defer { router.kill9() }
            let actor = try RunnerProcess.start(["--output", "json", "io", "actor", "--actor-id", actorID] + common)
            defer { actor.kill9() }
            let joined = await Self.next(actor) { $0["event"] == "Association" }
            #expect(joined?["associated"] == false)

            let (input, feed) = try Spawn.pipe()
            let source = try RunnerProcess.start(["io", "source", "--source-id", sourceID] + common, stdin: input)
            close(input)
            defer {
                close(feed)
                source.kill9()
            }
            // Values go out only once the router has associated the pair; the actor subscribes to
            // the route when it learns of it, so a value sent before that would find no subscriber.
            let associated = await Self.next(actor) { $0["event"] == "Association" }
            #expect(associated?["associated"] == true)
            let lines = (1...1000).map { "\($0)\n" }.joined()
            let written = lines.withCString { write(feed, $0, strlen($0)) }
            #expect(written == lines.utf8.count)
            var received: [JSONValue] = []
            while received.count < 1000, let value = await Self.next(actor, where: { $0["event"] == "IoValue" }) {
                received.append(value["data"] ?? .null)
            }
            #expect(received == (1...1000).map { JSONValue.int($0) })

            source.send(SIGKILL)  // the broker publishes its will; the router disassociates
            let left = await Self.next(actor) { $0["event"] == "Association" }
            #expect(left?["associated"] == false, "stderr: \(actor.stderr)")

            actor.send(SIGTERM)
            router.send(SIGTERM)
            #expect(await actor.outcome().exitCode == 0)
            #expect(await router.outcome().exitCode == 0)
        }
    }
}
