import Agent
import CoreTypes
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import Testing
import TestSupport

/// The commands that run until stopped: `monitor` and `run`. They end with exit 0 on SIGTERM or
/// SIGINT after deadvertising, and the broker sends `run`'s will when it is killed with -9.
@Suite(.timeLimit(.minutes(1)))
struct LongRunningCommandTests {
    static let signals: [Int32] = [SIGTERM, SIGINT]

    @Test(arguments: signals)
    func monitorPrintsEveryEventAsAJSONLineAndExitsZeroOnASignal(_ signal: Int32) async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let monitor = try RunnerProcess.start(["monitor", "--broker", broker.url.description, "--identity-id", id])
                defer { monitor.kill9() }
                // The monitor discovers the identities online once it observes everything.
                _ = try await watcher.next { $0.sourceID == id && $0.topic.eventType == .discover }
                try watcher.agent.publish(Channel(id: "status", object: BaseObject(name: "All good")))
                var line = try JSONValue(parsing: try #require(await monitor.nextLine()))
                if line["event"] == "Resolve" {  // the watcher's identity answering another Discover, if any
                    line = try JSONValue(parsing: try #require(await monitor.nextLine()))
                }
                #expect(line["event"] == "Channel")
                #expect(line["topic"] == .string("coaty/3/-/CHN:status/\(watcher.agent.identity.objectID)"))
                #expect(line["sourceId"] == .string(watcher.agent.identity.objectID))
                #expect(line.at("data.object.name") == "All good")

                // No timing threshold: a shutdown that hung would run into the suite's time limit.
                monitor.send(signal)
                let outcome = await monitor.outcome()
                #expect(outcome.exitCode == 0, "\(outcome)")
                let deadvertise = try await watcher.next { $0.deadvertises(id) }
                #expect(deadvertise != nil, "the monitor deadvertised its identity")
            }
        }
    }

    /// A burst of 30,000 events, three times the monitor's observer buffer: the monitor prints
    /// every one in order (its reading pauses while the buffer is full; the broker holds the rest),
    /// and says on stderr that nothing was dropped by saying nothing.
    @Test func monitorPrintsEveryEventOfABurstLargerThanItsBuffer() async throws {
        try await Self.withMonitor { watcher, monitor in
            let count = 30_000
            for number in 0..<count {
                try watcher.agent.publish(Channel(id: "burst", object: BaseObject(name: "\(number)")))
            }
            var numbers: [Int] = []
            while numbers.count < count, let text = await monitor.nextLine() {
                let line = try JSONValue(parsing: text)
                guard line["event"] == "Channel", let name = line.at("data.object.name")?.stringValue else { continue }
                numbers.append(try #require(Int(name)))
            }
            #expect(numbers == Array(0..<count))
            monitor.send(SIGTERM)
            let outcome = await monitor.outcome()
            #expect(outcome.exitCode == 0, "\(outcome)")
            #expect(outcome.stderr.contains("monitor: \(count) events shown (Channel \(count)); nothing dropped"), "\(outcome.stderr)")
        }
    }

    /// Runs `body` with a watcher agent and a monitor that is subscribed (it has sent its Discover).
    static func withMonitor(_ body: @escaping @Sendable (Watcher, RunnerProcess) async throws -> Void) async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let monitor = try RunnerProcess.start(["monitor", "--broker", broker.url.description, "--identity-id", id])
                defer { monitor.kill9() }
                _ = try await watcher.next { $0.sourceID == id && $0.topic.eventType == .discover }
                try await body(watcher, monitor)
            }
        }
    }

    @Test func monitorFiltersRecordsAndReplayPublishesTheSameEventsAgain() async throws {
        let folder = try Self.configuration("", named: "unused").deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("traffic.jsonl").path
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let monitor = try RunnerProcess.start([
                    "monitor", "--broker", broker.url.description, "--identity-id", id, "--event", "Advertise", "Channel",
                    "--object-type", "com.example.Light", "--where", #"{"conditions":["brightness",[2,0.5]]}"#,
                    "--record", recording,
                ])
                defer { monitor.kill9() }
                _ = try await watcher.next { $0.sourceID == id && $0.topic.eventType == .discover }
                let registry = ObjectTypeRegistry()
                func light(_ name: String, _ brightness: Double) throws -> any CoatyObject {
                    try registry.decodeObject(JSONValue.object([
                        "objectId": .string(ObjectID.make()), "objectType": "com.example.Light",
                        "coreType": "CoatyObject", "name": .string(name), "brightness": .double(brightness),
                    ]))
                }
                try watcher.agent.advertise(try light("dim", 0.2))  // --where drops it
                try watcher.agent.publish(Channel(id: "news", object: BaseObject(name: "not a light")))  // --object-type
                try watcher.agent.deadvertise([ObjectID.make()])  // --event
                try watcher.agent.advertise(try light("bright", 0.9))
                try watcher.agent.publish(Channel(id: "lights", object: try light("on the channel", 0.7)))
                var shown: [JSONValue] = []
                while shown.count < 3, let text = await monitor.nextLine() { shown.append(try JSONValue(parsing: text)) }
                // JSON lines keep both topics of the Advertise (core type and object type).
                #expect(shown.map { $0.at("data.object.name") } == ["bright", "bright", "on the channel"])
                monitor.send(SIGTERM)
                let outcome = await monitor.outcome()
                #expect(outcome.stderr.contains("monitor: 3 events shown (Advertise 2, Channel 1); nothing dropped"))

                // A second monitor sees the replay: the same topics and payloads, in the same order.
                let second = try RunnerProcess.start([
                    "monitor", "--broker", broker.url.description, "--identity-id", TestIDs.make(), "--source",
                    "Watcher",
                ])
                defer { second.kill9() }
                _ = try await watcher.next { $0.topic.eventType == .discover && $0.sourceID != id }
                let replay = try await RunnerProcess.run([
                    "replay", recording, "--speed", "0", "--broker", broker.url.description,
                ])
                #expect(replay.exitCode == 0, "\(replay)")
                var replayed: [JSONValue] = []
                while replayed.count < 3, let text = await second.nextLine() {
                    replayed.append(try JSONValue(parsing: text))
                }
                #expect(replayed.map { $0["topic"] } == shown.map { $0["topic"] })
                #expect(replayed.map { $0["data"] } == shown.map { $0["data"] })
            }
        }
    }

    @Test func replayReportsBadLinesWithTheirNumbersAndPublishesNothing() async throws {
        let file = try Self.configuration(
            """
            {"receivedAt": 1, "topic": "coaty/3/-/CHN:x/\(TestIDs.make())", "payload": "{}"}
            not json
            {"receivedAt": 2, "payload": "{}"}
            """, named: "bad.jsonl")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = try await RunnerProcess.run(["replay", file.path, "--broker", "mqtt://127.0.0.1:1"])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains("bad.jsonl:2: not JSON"))
        #expect(outcome.stderr.contains("bad.jsonl:3: needs topic"))
    }

    @Test func monitorJSONLinesCarryThePayloadAsReceived() async throws {
        try await Self.withMonitor { watcher, monitor in
            let id = ObjectID.make()
            let payload = """
                {"object": {"objectType": "coaty.CoatyObject", "coreType": "CoatyObject",
                 "objectId": "\(id)", "name": "x", "v": 1.50, "v": 2}}
                """
            try watcher.agent.publishRecorded(
                topic: "coaty/3/-/CHN:exact/\(watcher.agent.identity.objectID)", payload: Array(payload.utf8), retain: false)
            let line = try #require(await monitor.nextLine())
            // Numbers as written and both duplicate keys; the line break became a space.
            #expect(line.hasSuffix(#","data":"# + payload.replacingOccurrences(of: "\n", with: " ") + "}"), "\(line)")
            #expect(try JSONValue(parsing: line)["event"] == "Channel")
        }
    }

    @Test func monitorShowsTwoWayEventsWithTheirCorrelationIds() async throws {
        try await Self.withMonitor { watcher, monitor in
            let resolve = try await watcher.agent.discover(
                Discover(objectID: watcher.agent.identity.objectID), timeout: .seconds(30)
            ).first()
            var lines: [JSONValue] = []
            while lines.count < 2, let text = await monitor.nextLine() {
                let line = try JSONValue(parsing: text)
                if line["correlationId"] == .string(resolve.topic.correlationID ?? "") { lines.append(line) }
            }
            #expect(lines.map { $0["event"] } == ["Discover", "Resolve"])
            #expect(lines.first?["data"] == ["objectId": .string(watcher.agent.identity.objectID)])
            monitor.send(SIGTERM)
            #expect(await monitor.outcome().exitCode == 0)
        }
    }

    /// A configuration file in a fresh temporary directory.
    static func configuration(_ text: String, named name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(TestIDs.make())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static let lampID = "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let lampJSON: JSONValue = [
        "objectId": .string(lampID), "objectType": "com.example.Light", "coreType": "CoatyObject", "name": "Desk lamp",
        "brightness": 0.8,
    ]

    static let yaml = """
        name: Lamp controller
        objects:
          - objectId: \(lampID)
            objectType: com.example.Light
            coreType: CoatyObject
            name: Desk lamp
            brightness: 0.8
        controllers:
          ObjectLifecycleController: { discoverTimeout: 1 }
          ConnectionStateController:
        logging:
          remoteLevel: info
        """

    static let json = """
        {"name": "Lamp controller",
         "objects": [{"objectId": "\(lampID)", "objectType": "com.example.Light", "coreType": "CoatyObject",
                      "name": "Desk lamp", "brightness": 0.8}],
         "controllers": {"ObjectCacheController": {"timeToLive": 60}}}
        """

    @Test(arguments: [("agent.yaml", yaml), ("agent.json", json)])
    func runAdvertisesAnswersAndDeadvertisesOnSIGTERM(_ name: String, _ text: String) async throws {
        let file = try Self.configuration(text, named: name)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let agent = try RunnerProcess.start([
                    "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                ])
                defer { agent.kill9() }
                let advertised = try await watcher.next { $0.advertises(Self.lampID) }
                #expect(advertised?.sourceID == id)

                let resolve = try await watcher.agent.discover(Discover(objectID: Self.lampID), timeout: .seconds(30))
                    .first()
                #expect(resolve.sourceID == id)
                #expect(resolve.event.object?.name == "Desk lamp")
                let bright = try ObjectFilter(json: ["conditions": ["brightness", [2, 0.5]]])
                let retrieve = try await watcher.agent.query(
                    Query(objectTypes: ["com.example.Light"], filter: bright), timeout: .seconds(30)
                ).first()
                #expect(retrieve.event.objects.map(\.objectID) == [Self.lampID])
                let identity = try await watcher.agent.discover(Discover(objectID: id), timeout: .seconds(30)).first()
                #expect(identity.event.object?.name == "Lamp controller")

                agent.send(SIGTERM)
                let outcome = await agent.outcome()
                #expect(outcome.exitCode == 0, "\(outcome)")
                let leaving = try await watcher.collect { $0.deadvertises(id) }
                #expect(
                    leaving.contains { $0.deadvertises(Self.lampID) },
                    "the held object was deadvertised first; seen: \(leaving.map { "\($0.topic.name) \(String(decoding: $0.payload.prefix(120), as: UTF8.self))" }); stderr: \(outcome.stderr)"
                )
            }
        }
    }

    @Test func runReadsYAML12ScalarsAndGivesAnObjectWithoutIdANameBasedOne() async throws {
        let file = try Self.configuration(
            """
            name: Lamp controller
            objects:
              - objectType: com.example.Light
                coreType: CoatyObject
                name: Shelf lamp
                zip: 01234
                mode: 0o17
                mask: 0x1F
                flag: yes
                power: off
                lit: True
                none: ~
            """, named: "agent.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        // uuid5(namespace 6b1d2f4c-8e3a-4b57-9c0d-5e7f21436587, "Lamp controller\0com.example.Light\0Shelf lamp"),
        // as Python's uuid module computes it.
        let expectedID = "f31f562c-3f8d-5fe3-b1cd-7c9c6fe1c070"
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                for run in 1...2 {  // a restart (even with another identity id) keeps the id
                    let identityID = TestIDs.make()
                    let agent = try RunnerProcess.start([
                        "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", identityID,
                    ])
                    defer { agent.kill9() }
                    let advertised = try await watcher.next { $0.advertises(expectedID) && $0.sourceID == identityID }
                    try #require(advertised != nil, "run \(run): the object was advertised with its name-based id")
                    let resolve = try await watcher.agent.discover(Discover(objectID: expectedID), timeout: .seconds(30))
                        .first()
                    let object = try #require(resolve.event.object).jsonObject()
                    #expect(object["zip"] == 1234, "YAML 1.2: leading zeros are decimal")
                    #expect(object["mode"] == 15)
                    #expect(object["mask"] == 31)
                    #expect(object["flag"] == "yes", "YAML 1.2: yes is a string")
                    #expect(object["power"] == "off")
                    #expect(object["lit"] == true)
                    #expect(object["none"] == .null)
                    agent.send(SIGTERM)
                    #expect(await agent.outcome().exitCode == 0)
                }
            }
        }
    }

    @Test func runAnswersOperationsAndUpdatesOfItsObjects() async throws {
        let file = try Self.configuration(
            """
            name: Lamp controller
            objects:
              - objectId: \(Self.lampID)
                objectType: com.example.Light
                coreType: CoatyObject
                name: Desk lamp
                brightness: 0.8
            operations:
              com.example.ping: { result: { ok: true } }
              com.example.echo: { command: cat }
              com.example.fail: { command: "echo the lamp is unplugged >&2; exit 3" }
            """, named: "agent.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let agent = try RunnerProcess.start([
                    "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                ])
                defer { agent.kill9() }
                _ = try await watcher.next { $0.advertises(Self.lampID) && $0.sourceID == id }
                let calls = watcher.agent
                let ping = try await calls.call(Call(operation: "com.example.ping"), timeout: .seconds(30)).first()
                #expect(ping.event.result == ["ok": true])
                let echo = try await calls.call(
                    Call(operation: "com.example.echo", parameters: .named(["x": 1])), timeout: .seconds(30)
                ).first()
                #expect(echo.event.result == ["x": 1], "the command got the parameters on stdin and printed them")
                let fail = try await calls.call(Call(operation: "com.example.fail"), timeout: .seconds(30)).first()
                #expect(fail.event.error?.message == "the lamp is unplugged")

                var lamp = try #require(Self.lampJSON.objectValue)
                lamp["brightness"] = 0.3
                let dimmed = try ObjectTypeRegistry().decodeObject(.object(lamp))
                let complete = try await calls.update(Update(object: dimmed), timeout: .seconds(30)).first()
                #expect(try complete.event.object.jsonObject()["brightness"] == 0.3)
                let resolve = try await calls.discover(Discover(objectID: Self.lampID), timeout: .seconds(30)).first()
                #expect(try resolve.event.object?.jsonObject()["brightness"] == 0.3, "the update replaced the object")
                agent.send(SIGTERM)
                #expect(await agent.outcome().exitCode == 0)
            }
        }
    }

    @Test func runServesPrometheusMetricsAndHealth() async throws {
        let file = try Self.configuration(Self.yaml, named: "agent.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let port = try TestBroker.freeLoopbackPort()
                let agent = try RunnerProcess.start([
                    "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                    "--metrics", "127.0.0.1:\(port)",
                ])
                defer { agent.kill9() }
                _ = try await watcher.next { $0.advertises(Self.lampID) && $0.sourceID == id }
                #expect(await agent.waitForStderr(containing: "Server started and listening"), "Hummingbird's log line")
                let health = try await Self.get("http://127.0.0.1:\(port)/healthz")
                #expect(health.status == 200 && health.body == "ok: connected\n", "\(health)")
                let metrics = try await Self.get("http://127.0.0.1:\(port)/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.body.contains(#"coaty_events_published_total{event="Advertise"}"#), "\(metrics.body)")
                #expect(metrics.body.contains("coaty_connected 1"), "\(metrics.body)")
                broker.stop()
                #expect(await agent.waitForStderr(containing: "Connection lost"), "the agent logs its lost connection")
                let offline = try await Self.get("http://127.0.0.1:\(port)/healthz")
                #expect(offline.status == 503 && offline.body.hasPrefix("not connected"), "\(offline)")
                agent.send(SIGTERM)
                #expect(await agent.outcome().exitCode == 0)
            }
        }
    }

    /// GET `url` (the server listens: the test waited for its log line).
    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func runAdvertisesLogObjectsWhenRemoteLoggingIsOn() async throws {
        let file = try Self.configuration(Self.yaml, named: "agent.yaml")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let agent = try RunnerProcess.start([
                    "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                ])
                defer { agent.kill9() }
                let log = try await watcher.next { $0.sourceID == id && $0.topic.eventTypeFilter == "Log" }
                #expect(Watcher.json(log)?.at("object.coreType") == "Log")
                agent.send(SIGTERM)
                #expect(await agent.outcome().exitCode == 0)
            }
        }
    }

    @Test func killNineMakesTheBrokerSendTheWill() async throws {
        let file = try Self.configuration(Self.json, named: "agent.json")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let agent = try RunnerProcess.start([
                    "run", "--config", file.path, "--broker", broker.url.description, "--identity-id", id,
                ])
                defer { agent.kill9() }
                _ = try await watcher.next { $0.advertises(Self.lampID) }
                agent.send(SIGKILL)
                let outcome = await agent.outcome()
                #expect(outcome.wasSignalled)
                let will = try await watcher.next { $0.deadvertises(id) }
                #expect(will?.sourceID == id, "the broker published the last will")
            }
        }
    }
}
