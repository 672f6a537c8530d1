import Agent
import CoreTypes
import Glibc
import Testing
import TestSupport

/// Each one-shot subcommand of agent-runner against a real broker: what it prints (JSON lines)
/// and what it puts on the wire.
@Suite(.timeLimit(.minutes(1)))
struct OneShotCommandTests {
    static let lamp =
        #"{"objectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","objectType":"com.example.Light","coreType":"CoatyObject","name":"Desk lamp","brightness":0.8}"#

    @Test func advertisePrintsTheEventAndPublishesIt() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let outcome = try await RunnerProcess.run(
                    ["advertise", "--broker", broker.url.description, "--identity-id", id, "--object", Self.lamp])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let line = try #require(try outcome.json().first)
                #expect(line["event"] == "Advertise")
                #expect(line["sourceId"] == .string(id))
                #expect(line["topic"] == .string("coaty/3/-/ADV:CoatyObject/\(id)"))
                #expect(line["correlationId"] == nil, "one-way events have no correlation id")
                #expect(line.at("data.object.name") == "Desk lamp")
                #expect(line.at("data.object.brightness") == 0.8)
                let advertised = try await watcher.next { $0.advertises("8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2") }
                #expect(advertised?.sourceID == id)
            }
        }
    }

    @Test func advertiseRepeatsAndFillsInAMissingObjectId() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run([
                "advertise", "--broker", broker.url.description, "--repeat", "3", "--interval", "1ms",
                "--object", #"{"objectType":"coaty.CoatyObject","coreType":"CoatyObject","name":"No id"}"#,
            ])
            #expect(outcome.exitCode == 0, "\(outcome)")
            let ids = try outcome.json().compactMap { $0.at("data.object.objectId")?.stringValue }
            #expect(ids.count == 3)
            #expect(Set(ids).count == 1, "the generated id is the same in every repetition")
        }
    }

    @Test func deadvertisePublishesTheIds() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                let outcome = try await RunnerProcess.run([
                    "deadvertise", "--broker", broker.url.description, "--identity-id", id, "a", "b",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                #expect(try outcome.json().first?["data"] == ["objectIds": ["a", "b"]])
                let message = try await watcher.next { $0.deadvertises("a") }
                #expect(message?.sourceID == id)
                #expect(Watcher.json(message)?["objectIds"] == ["a", "b"])
            }
        }
    }

    @Test func channelPublishesOnTheChannel() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let outcome = try await RunnerProcess.run([
                    "channel", "news", "--broker", broker.url.description, "--object", Self.lamp,
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                #expect(try outcome.json().first?["event"] == "Channel")
                let message = try await watcher.next { $0.topic.eventType == .channel }
                #expect(message?.topic.eventTypeFilter == "news")
                #expect(Watcher.json(message)?.at("object.name") == "Desk lamp")
            }
        }
    }

    @Test func discoverPrintsEachResolveWithItsCorrelationId() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let responder = watcher.agent.identity.objectID
                let outcome = try await RunnerProcess.run([
                    "discover", "--broker", broker.url.description, "--object-id", responder, "--max-responses", "1", "--timeout",
                    "30s",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let lines = try outcome.json()
                #expect(lines.count == 1)
                let line = try #require(lines.first)
                #expect(line["event"] == "Resolve")
                #expect(line["sourceId"] == .string(responder))
                #expect(line.at("data.object.name") == "Watcher")
                let correlation = try #require(line["correlationId"]?.stringValue)
                #expect(line["topic"] == .string("coaty/3/-/RSV/\(responder)/\(correlation)"))
            }
        }
    }

    @Test func queryPrintsEachRetrieve() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let queries = try await watcher.agent.observeQuery()
                let answering = Task {
                    for try await request in queries {
                        let lamp = BaseObject(objectType: "com.example.Light", name: "Hall light")
                        try? request.respond(Retrieve(objects: [lamp]))
                    }
                }
                defer { answering.cancel() }
                let outcome = try await RunnerProcess.run([
                    "query", "--broker", broker.url.description, "--object-type", "com.example.Light",
                    "--filter", #"{"conditions":["name",[6,"Hall%"]],"take":5}"#, "--max-responses", "1", "--timeout",
                    "30s",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let line = try #require(try outcome.json().first)
                #expect(line["event"] == "Retrieve")
                #expect(line.at("data.objects")?[0]?["name"] == "Hall light")
            }
        }
    }

    @Test func updatePrintsEachComplete() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let updates = try await watcher.agent.observeUpdate(objectType: "com.example.Light")
                let answering = Task {
                    for try await request in updates { try? request.respond(Complete(object: request.event.object)) }
                }
                defer { answering.cancel() }
                let outcome = try await RunnerProcess.run([
                    "update", "--broker", broker.url.description, "--object", Self.lamp, "--max-responses", "1", "--timeout", "30s",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let line = try #require(try outcome.json().first)
                #expect(line["event"] == "Complete")
                #expect(line.at("data.object.brightness") == 0.8)
            }
        }
    }

    @Test func discoverOfIdentitiesListsTheNetworkNotTheCLIItself() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let outcome = try await RunnerProcess.run([
                    "discover", "--broker", broker.url.description, "--core-type", "Identity", "--name", "the CLI",
                    "--timeout", "1s",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let names = try outcome.json().compactMap { $0.at("data.object.name")?.stringValue }
                #expect(names == ["Watcher"])
            }
        }
    }

    @Test func callExitsFiveWhenEveryReturnIsAnError() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let calls = try await watcher.agent.observeCall("com.example.reboot")
                let answering = Task {
                    for try await request in calls {
                        try? request.respond(Return(error: Return.Failure(code: 7, message: "the lamp is unplugged")))
                    }
                }
                defer { answering.cancel() }
                let outcome = try await RunnerProcess.run([
                    "call", "com.example.reboot", "--broker", broker.url.description, "--max-responses", "1",
                    "--timeout", "30s",
                ])
                #expect(outcome.exitCode == 5, "\(outcome)")
                #expect(try outcome.json().first?["event"] == "Return", "the error Return is printed")
                #expect(outcome.stderr.contains("the lamp is unplugged (code 7)"))
            }
        }
    }

    @Test func callPrintsEachReturn() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let calls = try await watcher.agent.observeCall("com.example.add")
                let answering = Task {
                    for try await request in calls {
                        let sum =
                            (request.event.parameter(at: 0)?.intValue ?? 0)
                            + (request.event.parameter(at: 1)?.intValue ?? 0)
                        try? request.respond(Return(result: .int(sum)))
                    }
                }
                defer { answering.cancel() }
                let outcome = try await RunnerProcess.run([
                    "call", "com.example.add", "--broker", broker.url.description, "--params", "[2,3]", "--max-responses", "1",
                    "--timeout", "30s",
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                let line = try #require(try outcome.json().first)
                #expect(line["event"] == "Return")
                #expect(line["data"] == ["result": 5])
            }
        }
    }

    @Test func rawPublishReachesARawObserver() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let raw = try await watcher.agent.observeRaw("test/raw/#")
                let outcome = try await RunnerProcess.run([
                    "raw", "publish", "test/raw/one", "hello", "--broker", broker.url.description,
                ])
                #expect(outcome.exitCode == 0, "\(outcome)")
                #expect(try outcome.json().first == ["event": "Raw", "topic": "test/raw/one", "dataText": "hello"])
                var iterator = raw.makeAsyncIterator()
                let received = try #require(await iterator.next())
                #expect(received.payload == Array("hello".utf8))
            }
        }
    }

    @Test func rawObservePrintsMessagesAsJSON() async throws {
        try await TestBroker.withBroker { broker in
            // A retained message reaches the observer as soon as it subscribes: no race with its start.
            let published = try await RunnerProcess.run(
                ["raw", "publish", "test/retained", #"{"temperature":21.5}"#, "--retain", "--broker", broker.url.description])
            #expect(published.exitCode == 0, "\(published)")
            let observer = try RunnerProcess.start(["raw", "observe", "test/#", "--broker", broker.url.description])
            defer { observer.kill9() }
            let line = try JSONValue(parsing: try #require(await observer.nextLine()))
            #expect(line == ["event": "Raw", "topic": "test/retained", "retain": true, "data": ["temperature": 21.5]])
            observer.send(SIGTERM)
            #expect(await observer.outcome().exitCode == 0)
        }
    }

    @Test func environmentVariablesStandInForOptions() async throws {
        try await TestBroker.withBroker { broker in
            let id = TestIDs.make()
            let outcome = try await RunnerProcess.run(
                ["deadvertise", "x"],
                environment: [
                    "COATY_BROKER": broker.url.description, "COATY_NAMESPACE": "plant-3", "COATY_IDENTITY_ID": id,
                    "COATY_OUTPUT": "json",
                ])
            #expect(outcome.exitCode == 0, "\(outcome)")
            let line = try #require(try outcome.json().first)
            #expect(line["namespace"] == "plant-3")
            #expect(line["sourceId"] == .string(id))
        }
    }

    @Test func theCommandLineWinsOverTheEnvironment() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run(
                ["deadvertise", "x", "--namespace", "from-option"],
                environment: ["COATY_BROKER": broker.url.description, "COATY_NAMESPACE": "from-environment"])
            #expect(outcome.exitCode == 0, "\(outcome)")
            #expect(try outcome.json().first?["namespace"] == "from-option")
        }
    }

    @Test func globalOptionsMayComeBeforeTheSubcommand() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run(["--broker", broker.url.description, "--namespace=early", "deadvertise", "x"])
            #expect(outcome.exitCode == 0, "\(outcome)")
            #expect(try outcome.json().first?["namespace"] == "early")
        }
    }

    @Test func textOutputHasAlignedColumns() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run(
                ["deadvertise", "an-id", "--broker", broker.url.description, "--name", "Column test", "--output", "text"])
            #expect(outcome.exitCode == 0, "\(outcome)")
            let line = try #require(outcome.stdout.first)
            // time, event, type, source name, summary
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(columns.count >= 5)
            #expect(columns[1] == "Deadvertise")
            #expect(line.contains("Column test"))
            #expect(line.hasSuffix("an-id"))
        }
    }
}
