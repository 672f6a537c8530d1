import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Exit codes (design.md §5): 2 for bad usage or input with one line on stderr and nothing
/// published, 3 when the broker cannot be reached or refuses the credentials, 4 when a request
/// gets no response.
@Suite(.timeLimit(.minutes(1)))
struct ExitCodeTests {
    /// A bad invocation and a word its one stderr line must contain.
    struct BadInput: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        var environment: [String: String] = [:]
        let mentions: String
        var testDescription: String { (environment.map { "\($0.key)=\($0.value)" } + arguments).joined(separator: " ") }
    }

    static let badInputs: [BadInput] = [
        BadInput(arguments: ["advertise", "--object", #"{"objectType":"#], mentions: "--object"),
        BadInput(
            arguments: ["advertise", "--object", #"{"objectType":"com.example.Light","name":"x"}"#],
            mentions: "coreType"),
        BadInput(arguments: ["advertise", "--object", "[]"], mentions: "--object"),
        BadInput(arguments: ["advertise"], mentions: "--object"),
        BadInput(arguments: ["advertise", "--file", "/nonexistent/object.json"], mentions: "--file"),
        BadInput(arguments: ["advertise", "--object", "{}", "--repeat", "0"], mentions: "--repeat"),
        BadInput(
            arguments: ["channel", "a/b", "--object", #"{"coreType":"CoatyObject","objectType":"x.y","name":"n"}"#],
            mentions: "ID"),
        BadInput(arguments: ["deadvertise"], mentions: "id"),
        BadInput(arguments: ["discover"], mentions: "--object-id"),
        BadInput(arguments: ["discover", "--core-type", "Lamp"], mentions: "Lamp"),
        BadInput(arguments: ["discover", "--object-id", "x", "--core-type", "Task"], mentions: "--object-id"),
        BadInput(arguments: ["discover", "--object-id", "x", "--timeout", "soon"], mentions: "--timeout"),
        BadInput(arguments: ["query", "--object-type", "a", "--filter", #"{"conditions":5}"#], mentions: "--filter"),
        BadInput(arguments: ["query"], mentions: "--object-type"),
        BadInput(arguments: ["update", "--object", "7"], mentions: "--object"),
        BadInput(arguments: ["call", "op", "--params", "5"], mentions: "--params"),
        BadInput(arguments: ["call", "op", "--context-filter", "[1]"], mentions: "--context-filter"),
        BadInput(arguments: ["raw", "publish", "coaty/3/-/ADV:Task/x", "payload"], mentions: "TOPIC"),
        BadInput(arguments: ["raw", "observe", "a/#/b"], mentions: "FILTER"),
        BadInput(arguments: ["monitor", "--broker", "http://example.com"], mentions: "--broker"),
        BadInput(arguments: ["monitor", "--namespace", "a/b"], mentions: "--namespace"),
        BadInput(arguments: ["monitor", "--identity-id", "lamp-1"], mentions: "--identity-id"),
        BadInput(arguments: ["monitor", "--log-level", "loud"], mentions: "--log-level"),
        BadInput(arguments: ["monitor", "--output", "xml"], mentions: "--output"),
        BadInput(arguments: ["monitor", "--password", "secret"], mentions: "--password"),
        BadInput(arguments: ["monitor", "--ca-file", "/nonexistent/ca.pem"], mentions: "--ca-file"),
        BadInput(arguments: ["monitor", "--bogus"], mentions: "--bogus"),
        BadInput(arguments: ["monitor"], environment: ["COATY_OUTPUT": "xml"], mentions: "COATY_OUTPUT"),
        BadInput(
            arguments: ["monitor"], environment: ["COATY_CROSS_NAMESPACE": "maybe"], mentions: "COATY_CROSS_NAMESPACE"),
        BadInput(arguments: ["frobnicate"], mentions: "frobnicate"),
        BadInput(arguments: ["run", "--config", "/nonexistent/agent.yaml"], mentions: "--config"),
    ]

    @Test(.serialized, arguments: badInputs)
    func badInputExitsTwoWithOneLineAndPublishesNothing(_ input: BadInput) async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let id = TestIDs.make()
                var environment = input.environment
                environment["COATY_BROKER"] = broker.url.description
                environment["COATY_IDENTITY_ID"] = environment["COATY_IDENTITY_ID"] ?? id
                let outcome = try await RunnerProcess.run(input.arguments, environment: environment)
                #expect(outcome.exitCode == 2, "\(outcome)")
                #expect(outcome.stdout.isEmpty, "\(outcome)")
                #expect(outcome.stderrLines.count == 1, "\(outcome)")
                let line = try #require(outcome.stderrLines.first)
                #expect(line.hasPrefix("agent-runner: "))
                #expect(line.contains(input.mentions), "\(line)")
                // A marker published after the bad command; nothing of the bad command comes before it.
                let marker = try await RunnerProcess.run(["deadvertise", "marker-\(id)", "--broker", broker.url.description])
                #expect(marker.exitCode == 0, "\(marker)")
                let seen = try await watcher.collect { $0.deadvertises("marker-\(id)") }
                #expect(
                    !seen.contains { $0.sourceID == id },
                    "the bad command published \(seen.filter { $0.sourceID == id })")
            }
        }
    }

    @Test func aBadConfigurationFileExitsTwoNamingTheMember() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(TestIDs.make())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("agent.yaml")
        try "name: Lamp\nnamspace: typo\n".write(to: file, atomically: true, encoding: .utf8)
        let outcome = try await RunnerProcess.run(["run", "--config", file.path])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderrLines.count == 1)
        #expect(outcome.stderr.contains("namspace"))
    }

    @Test func anUnreachableBrokerExitsThreeNamingTheBrokerAndTheReason() async throws {
        let (url, outcome) = try await TestBroker.withUnreachablePort { port in
            let url = "mqtt://127.0.0.1:\(port)"
            return (url, try await RunnerProcess.run(["discover", "--core-type", "Identity", "--broker", url]))
        }
        #expect(outcome.exitCode == 3, "\(outcome)")
        #expect(outcome.stderrLines.count == 1)
        #expect(outcome.stderr.contains(url))
        #expect(outcome.stderr.contains("refused"), "the reason: \(outcome.stderr)")
    }

    @Test(arguments: [["discover", "--core-type", "Identity"], ["monitor"], ["run", "--config", "CONFIG"]])
    func aWrongPasswordExitsThree(_ command: [String]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(TestIDs.make())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwords = directory.appendingPathComponent("passwords")
        let made = try Process.run(
            URL(fileURLWithPath: "/usr/bin/mosquitto_passwd"), arguments: ["-b", "-c", passwords.path, "lamp", "right"])
        made.waitUntilExit()
        try #require(made.terminationStatus == 0, "mosquitto_passwd failed")
        let config = directory.appendingPathComponent("agent.json")
        try #"{"name":"Locked out"}"#.write(to: config, atomically: true, encoding: .utf8)
        try await TestBroker.withBroker(extraConfiguration: [
            "allow_anonymous false", "password_file \(passwords.path)",
        ]) { broker in
            let arguments = command.map { $0 == "CONFIG" ? config.path : $0 }
            let outcome = try await RunnerProcess.run(
                arguments + ["--broker", broker.url.description, "--username", "lamp"], environment: ["COATY_PASSWORD": "wrong"])
            #expect(outcome.exitCode == 3, "\(outcome)")
            #expect(outcome.stderr.contains(broker.url.description), "\(outcome.stderr)")
            #expect(outcome.stderr.lowercased().contains("refused"), "the broker's reason: \(outcome.stderr)")
        }
    }

    @Test func theRightPasswordConnects() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(TestIDs.make())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwords = directory.appendingPathComponent("passwords")
        let made = try Process.run(
            URL(fileURLWithPath: "/usr/bin/mosquitto_passwd"), arguments: ["-b", "-c", passwords.path, "lamp", "right"])
        made.waitUntilExit()
        try await TestBroker.withBroker(extraConfiguration: [
            "allow_anonymous false", "password_file \(passwords.path)",
        ]) { broker in
            let outcome = try await RunnerProcess.run(
                ["deadvertise", "x", "--broker", broker.url.description],
                environment: ["COATY_USERNAME": "lamp", "COATY_PASSWORD": "right"])
            #expect(outcome.exitCode == 0, "\(outcome)")
        }
    }

    @Test(arguments: [
        ["discover", "--object-id", "nobody-has-this"], ["query", "--core-type", "Task"],
        [
            "update", "--object",
            #"{"objectId":"x","objectType":"coaty.CoatyObject","coreType":"CoatyObject","name":"n"}"#,
        ],
        ["call", "nobody.answers"],
    ])
    func aRequestWithoutResponseExitsFour(_ command: [String]) async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run(command + ["--broker", broker.url.description, "--timeout", "200ms"])
            #expect(outcome.exitCode == 4, "\(outcome)")
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderrLines.count == 1)
            #expect(outcome.stderr.contains("200ms"))
            #expect(outcome.stderr.contains("--cross-namespace"), "a request in one namespace suggests them all")
        }
    }

    @Test func aCrossNamespaceRequestWithoutResponseDoesNotSuggestCrossNamespace() async throws {
        try await TestBroker.withBroker { broker in
            let outcome = try await RunnerProcess.run([
                "call", "nobody.answers", "--cross-namespace", "--broker", broker.url.description, "--timeout", "200ms",
            ])
            #expect(outcome.exitCode == 4, "\(outcome)")
            #expect(!outcome.stderr.contains("--cross-namespace"))
        }
    }

    @Test func helpExitsZero() async throws {
        let outcome = try await RunnerProcess.run(["--help"])
        #expect(outcome.exitCode == 0)
        for command in [
            "run", "monitor", "advertise", "deadvertise", "channel", "discover", "query", "update", "call", "raw",
            "replay", "demo",
        ] {
            #expect(
                outcome.stdout.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(command + " ") },
                "\(command)")
        }
    }
}
