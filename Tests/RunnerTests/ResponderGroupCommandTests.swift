import Agent
import CoreTypes
import Foundation
import Glibc
import Testing
import TestSupport

/// `run` with `responderGroup`: replicas of one service share the requests, each answered once,
/// and a replica that is killed leaves its share to the others.
@Suite(.timeLimit(.minutes(3)))
struct ResponderGroupCommandTests {
    static let replicaConfiguration = """
        name: Light service
        objects:
          - { objectId: \(LongRunningCommandTests.lampID), objectType: com.example.Light, coreType: CoatyObject, name: Desk lamp }
        responderGroup: lights
        """

    /// The Retrieves the watcher saw, by correlation id and by the replica that sent them.
    struct Answers {
        var byRequest: [String: Int] = [:]
        var byReplica: [String: Int] = [:]
    }

    @Test
    func threeReplicasAnswerEachQueryOnceAndSurviveAKill() async throws {
        let file = try LongRunningCommandTests.configuration(Self.replicaConfiguration, named: "replica.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let ids = (1...3).map { _ in TestIDs.make() }
                let replicas = try ids.map { id in
                    try RunnerProcess.start([
                        "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                    ])
                }
                defer { replicas.forEach { $0.kill9() } }
                // A replica advertises its objects once its group's subscriptions are acknowledged.
                var advertised = Set<String>()
                while advertised.count < ids.count {
                    let message = try #require(
                        try await watcher.next { $0.advertises(LongRunningCommandTests.lampID) }, "every replica advertised")
                    advertised.insert(message.sourceID)
                }

                let before = try await Self.ask(3_000, watcher, replicas: Set(ids))
                #expect(before.byRequest.count == 3_000, "every Query was answered")
                #expect(before.byRequest.values.allSatisfy { $0 == 1 }, "no Query was answered twice")
                for id in ids { #expect(before.byReplica[id, default: 0] > 0, "replica \(id) had a share") }

                replicas[0].kill9()
                let will = try await watcher.next { $0.topic.eventType == .deadvertise && $0.sourceID == ids[0] }
                #expect(will != nil, "the killed replica's last will arrived")
                // Its group connection is another socket, which the broker may notice a moment later
                // (a request published in between is lost, as any QoS 0 message to a dead client).
                let link = Agent.responderGroupClientID(identityID: ids[0], group: "lights")
                #expect(await broker.waitForOutput(containing: "Client \(link) "), "the broker noticed the group connection's end")
                let after = try await Self.ask(1_000, watcher, replicas: Set(ids.dropFirst()))
                #expect(after.byRequest.count == 1_000, "every later Query was answered")
                #expect(after.byRequest.values.allSatisfy { $0 == 1 }, "no later Query was answered twice")
                #expect(after.byReplica[ids[0]] == nil, "the killed replica answered nothing")
                for id in ids.dropFirst() { #expect(after.byReplica[id, default: 0] > 0, "replica \(id) had a share") }
            }
        }
    }

    @Test
    func aGroupNameThatIsNotOneTopicLevelIsAUsageError() async throws {
        let file = try LongRunningCommandTests.configuration("responderGroup: lights/north\n", named: "bad.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await RunnerProcess.run(["run", "--config", file.path, "--broker", "mqtt://127.0.0.1:1"])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains("responderGroup"), "\(outcome)")
        #expect(outcome.stderr.contains("one MQTT topic level"), "\(outcome)")
    }

    /// Sends `count` Queries one after another, then a Discover for the replicas' identities (which
    /// the identity answers on its own connection, after anything its group's connection had
    /// received), and counts the Retrieves the watcher saw up to the last of their Resolves.
    static func ask(_ count: Int, _ watcher: Watcher, replicas: Set<String>) async throws -> Answers {
        var sent = Set<String>()
        for index in 0..<count {
            let retrieve: Received<Retrieve>
            do {
                retrieve = try await watcher.agent.query(Query(objectTypes: ["com.example.Light"]), timeout: .seconds(5))
                    .first()
            } catch {
                Issue.record("query \(index) of \(count): \(error)")
                throw error
            }
            #expect(retrieve.event.objects.map(\.objectID) == [LongRunningCommandTests.lampID])
            if let id = retrieve.topic.correlationID { sent.insert(id) }
        }
        var waiting = replicas
        _ = try await watcher.agent.discover(Discover(coreTypes: [.identity]), timeout: .seconds(30))
        var answers = Answers()
        while !waiting.isEmpty {
            let message = try #require(try await watcher.next { _ in true }, "the watcher's events ended")
            switch message.topic.eventType {
            case .retrieve:
                guard let id = message.topic.correlationID, sent.contains(id) else { continue }
                answers.byRequest[id, default: 0] += 1
                answers.byReplica[message.sourceID, default: 0] += 1
            case .resolve:  // only the identities answer Discovers here
                waiting.remove(message.sourceID)
            default:
                continue
            }
        }
        return answers
    }
}
