import Agent
import CoreTypes
import Foundation
import Glibc
import TestSupport
import Testing

/// `run` with `storage:` (a recorder), and `store query|count|export|import`.
@Suite(.timeLimit(.minutes(2)))
struct StorageCommandTests {

    /// The databases a recorder writes to.
    enum Database: String, CaseIterable {
        case sqlite
        case postgres

        /// Runs `body` with the URL of a new, empty database of this kind (a SQLite file in a
        /// temporary folder, or a database on a PostgreSQL server started for the test).
        func withURL(_ body: (String) async throws -> Void) async throws {
            switch self {
            case .sqlite:
                let folder = try TemporaryDirectory()
                defer { folder.remove() }
                try await body("sqlite:\(folder.path)/recorder.db")
            case .postgres:
                try await TestPostgres.withServer { server in try await body(try await server.createDatabase()) }
            }
        }
    }

    /// The recorder's configuration for `database` (a URL).
    static func recorderConfiguration(broker: TestBroker, database: String) throws -> URL {
        try LongRunningCommandTests.configuration(
            """
            name: Recorder
            broker: \(broker.url)
            storage:
              database: \(database)
              record: { objectTypes: [com.example.Light], coreTypes: [Task] }
              answer: true
            """, named: "recorder.yaml")
    }

    /// Starts a recorder and waits until it is online and observing (its identity is advertised).
    static func startRecorder(_ config: URL, watcher: Watcher) async throws -> RunnerProcess {
        let id = TestIDs.make()
        let recorder = try RunnerProcess.start(
            ["run", "--config", config.path, "--identity-id", id, "--log-level", "trace"])
        _ = try await watcher.next { $0.advertises(id) }
        return recorder
    }

    /// 1,000 varied objects: lights and tasks (recorded), sensors (not recorded).
    static func variedObjects() throws -> [JSONObject] {
        let rooms: [JSONValue] = ["hall", "lab", "kitchen"]
        return (0..<1000).map { index -> JSONObject in
            var json: JSONObject = [
                "objectId": .string(TestIDs.make()), "name": .string("object \(index % 50)"),
                "n": .int(index % 17), "room": rooms[index % 3], "on": .bool(index % 2 == 0),
            ]
            switch index % 4 {
            case 0, 1: (json["objectType"], json["coreType"]) = ("com.example.Light", "CoatyObject")
            case 2: (json["objectType"], json["coreType"]) = ("com.example.Sensor", "CoatyObject")
            default:
                (json["objectType"], json["coreType"]) = ("coaty.Task", "Task")
                json["creatorId"] = .string(TestIDs.make())
                json["creationTimestamp"] = 1_600_000_000_000
                json["status"] = 0
            }
            if index % 5 == 0 { json["level"] = .double(Double(index) + 0.5) }
            if index % 7 == 0 { json["battery"] = ["level": .int(index % 10)] }
            return json
        }
    }

    @Test(arguments: Database.allCases)
    func aKilledRecorderKeepsWhatItRecordedAndStoreCommandsFindExactlyTheMatchingObjects(_ kind: Database)
        async throws
    {
        try await kind.withURL { database in try await killedRecorderKeepsWhatItRecorded(database: database) }
    }

    /// A recorder into `database` gets 1,000 Advertises and a Deadvertise, is killed and restarted;
    /// `store query|count` and a network Query then find exactly the matching objects.
    func killedRecorderKeepsWhatItRecorded(database: String) async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let config = try Self.recorderConfiguration(broker: broker, database: database)
                let first = try await Self.startRecorder(config, watcher: watcher)
                defer { first.kill9() }
                let objects = try Self.variedObjects()
                let registry = ObjectTypeRegistry()
                for json in objects { try watcher.agent.advertise(try registry.decodeObject(json)) }
                var recorded = objects.filter { $0["objectType"] != "com.example.Sensor" }
                let gone = stride(from: 0, to: recorded.count, by: 10).map {
                    recorded[$0]["objectId"]?.stringValue ?? ""
                }
                try watcher.agent.deadvertise(gone)
                recorded.removeAll { gone.contains($0["objectId"]?.stringValue ?? "") }
                // Every recorded Advertise, then the Deadvertise, is committed once it is logged.
                let events = objects.count(where: { $0["objectType"] != "com.example.Sensor" }) + 1
                #expect(
                    await first.waitForStderr(containing: "storage.count=\(events) "), "\(first.stderr.suffix(2000))")
                first.send(SIGKILL)
                #expect(await first.outcome().wasSignalled)

                let second = try await Self.startRecorder(config, watcher: watcher)
                defer { second.kill9() }
                let filters = [
                    // coaty-js operator codes: 2 GreaterThan, 6 Like, 7 Equals, 9 Exists.
                    #"{"conditions":{"and":[["room",[7,"lab"]],["n",[2,3]]]},"orderByProperties":[["n","Desc"],["name","Asc"]]}"#,
                    #"{"conditions":{"or":[["battery.level",[2,6]],["level",[9]]]},"skip":3,"take":40}"#,
                    #"{"conditions":["coreType",[7,"Task"]],"orderByProperties":[["level","Asc"]]}"#,
                    #"{"conditions":["name",[6,"object 1%"]],"orderByProperties":[["name","Asc"]]}"#,
                ]
                for text in filters {
                    let filter = try ObjectFilter(json: JSONValue(parsing: text))
                    let expected = try filter.apply(to: recorded).map(JSONValue.object)
                    #expect(expected.count > 10, "a filter that finds a real set: \(text)")
                    let query = try await RunnerProcess.run(
                        ["store", "query", "--database", database, "--filter", text, "--output", "json"])
                    #expect(query.exitCode == 0, "\(query)")
                    #expect(try query.json() == expected, "\(text)")
                    let count = try await RunnerProcess.run(
                        ["store", "count", "--database", database, "--filter", text])
                    #expect(count.stdout == ["\(expected.count)"], "\(count)")
                }
                // Over the network: the recorder answers a Query from the store.
                let text = #"{"conditions":["on",[7,true]],"orderByProperties":[["n","Asc"]],"take":25}"#
                let lights = recorded.filter { $0["objectType"] == "com.example.Light" }
                let expected = try ObjectFilter(json: JSONValue(parsing: text)).apply(to: lights).map(JSONValue.object)
                let retrieve = try await RunnerProcess.run([
                    "query", "--broker", broker.url.description, "--object-type", "com.example.Light", "--filter", text,
                    "--max-responses", "1", "--timeout", "30s", "--output", "json",
                ])
                #expect(retrieve.exitCode == 0 && expected.count == 25, "\(retrieve)")
                #expect(try retrieve.json().first?.at("data.objects") == .array(expected))
                second.send(SIGTERM)
                #expect(await second.outcome().exitCode == 0)
            }
        }
    }

    @Test func aRecorderWaitsForARestartedPostgreSQLServerAndLosesNothing() async throws {
        try await TestPostgres.withServer { server in
            let database = try await server.createDatabase()
            try await TestBroker.withBroker { broker in
                try await Watcher.with(broker) { watcher in
                    let config = try Self.recorderConfiguration(broker: broker, database: database)
                    let recorder = try await Self.startRecorder(config, watcher: watcher)
                    defer { recorder.kill9() }
                    func advertiseLights(_ range: Range<Int>) throws {
                        for index in range {
                            try watcher.agent.advertise(BaseObject(objectType: "com.example.Light", name: "L\(index)"))
                        }
                    }
                    try advertiseLights(0..<10)
                    #expect(await recorder.waitForStderr(containing: "storage.count=10 "), "\(recorder.stderr.suffix(2000))")
                    try await server.stop()
                    try advertiseLights(10..<20)
                    #expect(await recorder.waitForStderr(containing: "Cannot store the Advertise event: "), "\(recorder.stderr.suffix(2000))")
                    try await server.startAgain()
                    #expect(await recorder.waitForStderr(containing: "storage.count=20 "), "\(recorder.stderr.suffix(2000))")
                    #expect(recorder.stderr.contains("Writing again"))
                    let count = try await RunnerProcess.run(["store", "count", "--database", database])
                    #expect(count.stdout == ["20"], "\(count)")
                    recorder.send(SIGTERM)
                    #expect(await recorder.outcome().exitCode == 0)
                }
            }
        }
    }

    @Test func aLiveQueryPrintsItsResultThenEachChange() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let hall = BaseObject(objectType: "com.example.Light", name: "Hall")
                let queries = try await watcher.agent.observeQuery()
                let answering = Task {
                    for try await request in queries { try? request.respond(Retrieve(objects: [hall])) }
                }
                defer { answering.cancel() }
                let live = try RunnerProcess.start([
                    "query", "--live", "--broker", broker.url.description, "--object-type", "com.example.Light",
                    "--filter", #"{"conditions":["name",[6,"%a%"]],"orderByProperties":[["name","Asc"]]}"#,
                    "--output", "json",
                ])
                defer { live.kill9() }
                // The first lines: the result before and (or, if it came first) after the Retrieve.
                var line = try JSONValue(parsing: try #require(await live.nextLine()))
                if line["objects"] == [] {
                    #expect(line["added"] == [] && line["removed"] == [] && line["changed"] == [])
                    line = try JSONValue(parsing: try #require(await live.nextLine()))
                }
                #expect(line["objects"]?.arrayValue?.map { $0["name"] } == ["Hall"])
                #expect(line["added"]?.arrayValue?.map { $0["name"] } == ["Hall"])

                let balcony = BaseObject(objectType: "com.example.Light", name: "Balcony")
                try watcher.agent.advertise(BaseObject(objectType: "com.example.Light", name: "Off"))  // no 'a'
                try watcher.agent.advertise(balcony)
                line = try JSONValue(parsing: try #require(await live.nextLine()))
                #expect(line["objects"]?.arrayValue?.map { $0["name"] } == ["Balcony", "Hall"])
                #expect(line["added"]?.arrayValue?.map { $0["objectId"] } == [.string(balcony.objectID)])

                try watcher.agent.deadvertise([hall.objectID])
                line = try JSONValue(parsing: try #require(await live.nextLine()))
                #expect(line["objects"]?.arrayValue?.map { $0["name"] } == ["Balcony"])
                #expect(line["removed"]?.arrayValue?.map { $0["name"] } == ["Hall"])
                live.send(SIGINT)
                #expect(await live.outcome().exitCode == 0)
            }
        }
    }

    @Test func importAndExportRoundTripAndBadLinesAreReportedWithTheirNumbers() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = "sqlite:\(folder.path)/store.db"
        let objects: [JSONValue] = [
            [
                "objectId": "a", "objectType": "com.example.Light", "coreType": "CoatyObject", "name": "A",
                "x": [1, "y"],
            ],
            ["objectId": "b", "objectType": "com.example.Light", "coreType": "CoatyObject", "name": "B", "n": 2.5],
        ]
        let input = folder.path + "/in.jsonl"
        try (objects.map { $0.serializedString() }.joined(separator: "\n") + "\n").write(
            toFile: input, atomically: true, encoding: .utf8)
        let imported = try await Self.run(
            ["store", "import", "--database", database, "--collection", "things"], stdin: input)
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(imported.stderr.contains("2 objects stored in 'things'"))
        let exported = try await RunnerProcess.run([
            "store", "export", "--database", database, "--collection", "things",
        ])
        #expect(try exported.json() == objects)

        let bad = folder.path + "/bad.jsonl"
        try "\(objects[0].serializedString())\n{oops\n[1]\n{\"objectId\":\"c\",\"coreType\":\"CoatyObject\"}\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await Self.run(
            ["store", "import", "--database", database, "--collection", "things"], stdin: bad)
        #expect(refused.exitCode == 2)
        #expect(
            refused.stderr.contains("stdin:2: not JSON") && refused.stderr.contains("stdin:3: expected a Coaty object")
                && refused.stderr.contains("stdin:4: not a valid Coaty object"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was stored"))
        let count = try await RunnerProcess.run(["store", "count", "--database", database, "--collection", "things"])
        #expect(count.stdout == ["2"])
        let text = try await RunnerProcess.run(
            ["store", "query", "--database", database, "--collection", "things", "--output", "text"])
        #expect(text.stdout.count == 2 && text.stdout[0].hasPrefix("A  com.example.Light  a"), "\(text)")
    }

    @Test(arguments: [
        (["store", "count", "--database", "postgres://localhost/db"], "it names no user"),
        (["store", "count", "--database", "mysql://x"], "give sqlite:PATH"),
        (["store", "count", "--database", "sqlite:/nonexistent/x.db"], "no database at"),
        (["store", "query", "--database", "sqlite:DB", "--collection", "nope"], "no collection 'nope'"),
        (["store", "query", "--database", "sqlite:DB", "--filter", "{"], "--filter: not valid JSON"),
    ])
    func badStoreInputExitsTwoSayingWhatToDo(_ arguments: [String], _ message: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = folder.path + "/store.db"
        let created = try await Self.run(["store", "import", "--database", "sqlite:\(database)"], stdin: "/dev/null")
        #expect(created.exitCode == 0, "\(created)")
        let outcome = try await RunnerProcess.run(
            arguments.map { $0.replacingOccurrences(of: "sqlite:DB", with: "sqlite:\(database)") })
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func aPostgreSQLServerThatIsNotRunningExitsOneSayingSo() async throws {
        let url = "postgres://coaty@127.0.0.1:\(try TestBroker.freeLoopbackPort())/objects"
        let outcome = try await RunnerProcess.run(["store", "count", "--database", url])
        #expect(outcome.exitCode == 1, "\(outcome)")
        #expect(
            outcome.stderr.contains("cannot connect to \(url)") && outcome.stderr.contains("is the server running?"),
            "\(outcome.stderr)")
    }

    @Test func aRunConfigurationWithABadStorageMemberExitsTwo() async throws {
        let config = try LongRunningCommandTests.configuration(
            "storage: { database: 'postgres://localhost/db', record: { coreTypes: [Light] } }", named: "bad.yaml")
        let outcome = try await RunnerProcess.run(["run", "--config", config.path])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(
            outcome.stderr.contains("storage.database") && outcome.stderr.contains("PostgreSQL"), "\(outcome.stderr)")
    }

    /// Runs agent-runner with standard input read from `file`.
    static func run(_ arguments: [String], stdin file: String) async throws -> RunnerProcess.Outcome {
        let descriptor = open(file, O_RDONLY)
        defer { close(descriptor) }
        return try await RunnerProcess.start(arguments, stdin: descriptor).outcome()
    }
}

/// A temporary directory for a test's databases.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("runner-store-\(TestIDs.make())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
