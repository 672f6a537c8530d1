import Agent
import CoreTypes
import Foundation
import Glibc
import TestSupport
import Testing

/// `run` with `historian:`: snapshots of observed objects, stored, advertised and queried.
@Suite(.timeLimit(.minutes(2)))
struct HistorianCommandTests {
    @Test func aHistorianSnapshotsObservedLightsAndAnswersAQueryForThemFromItsDatabase() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = folder.path + "/historian.db"
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let config = try LongRunningCommandTests.configuration(
                    """
                    name: Historian
                    broker: \(broker.url)
                    historian:
                      database: sqlite:\(database)
                      snapshot: { objectTypes: [com.example.Light], tags: [observed] }
                      persistLocal: true
                      advertise: true
                      answer: true
                    """, named: "historian.yaml")
                let id = TestIDs.make()
                let historian = try RunnerProcess.start(["run", "--config", config.path, "--identity-id", id])
                defer { historian.kill9() }
                _ = try await watcher.next { $0.advertises(id) }

                let lamp = try ObjectTypeRegistry().decodeObject(LongRunningCommandTests.lampJSON)
                try watcher.agent.advertise(lamp)
                let advertised = try #require(
                    try await watcher.next {
                        $0.topic.eventType == .advertise && $0.topic.filteredCoreType == .snapshot
                    })
                let snapshot = try #require(Watcher.json(advertised)?["object"])
                #expect(snapshot["parentObjectId"] == .string(LongRunningCommandTests.lampID), "\(snapshot)")
                #expect(snapshot["creatorId"] == .string(id) && snapshot["tags"] == ["observed"], "\(snapshot)")

                let filter = #"{"conditions":["parentObjectId",[7,"\#(LongRunningCommandTests.lampID)"]]}"#
                let retrieve = try await RunnerProcess.run([
                    "query", "--broker", broker.url.description, "--core-type", "Snapshot", "--filter", filter,
                    "--max-responses", "1", "--timeout", "30s", "--output", "json",
                ])
                #expect(retrieve.exitCode == 0, "\(retrieve)")
                #expect(try retrieve.json().first?.at("data.objects") == [snapshot])
                historian.send(SIGTERM)
                #expect(await historian.outcome().exitCode == 0)

                let stored = try await RunnerProcess.run([
                    "store", "query", "--database", "sqlite:\(database)", "--collection", "historian", "--output",
                    "json",
                ])
                #expect(try stored.json() == [snapshot], "\(stored)")
            }
        }
    }

    @Test(arguments: [
        ("historian: { database: 'sqlite:h.db', keep: true }", "historian.keep is not a historian member"),
        ("historian: { snapshot: { objectTypes: [a] } }", "historian.database is missing"),
        ("historian: { database: 'sqlite:h.db', answer: yes }", "historian.answer must be true or false"),
        (
            "historian: { database: 'sqlite:h.db', snapshot: { objectTypes: [a] } }",
            "historian.snapshot takes snapshots that go nowhere"
        ),
        (
            "historian: { database: 'sqlite:h.db', persistLocal: true, snapshot: { coreTypes: [Snapshot] } }",
            "historian.snapshot.coreTypes cannot hold Snapshot"
        ),
        (
            "historian: { database: 'sqlite:h.db', persistLocal: true, snapshot: { coreTypes: [Lamp] } }",
            "'Lamp' is not a core type"
        ),
    ])
    func aBadHistorianMemberExitsTwoSayingWhatToDo(_ text: String, _ message: String) async throws {
        let config = try LongRunningCommandTests.configuration(text, named: "bad.yaml")
        let outcome = try await RunnerProcess.run(["run", "--config", config.path])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }
}
