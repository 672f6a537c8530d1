import Agent
import CoreTypes
import Foundation
import Glibc
import TestSupport
import Testing

/// `dashboard`: the page a real headless Chromium renders from the runner's server, live over
/// its WebSocket, with agents run by `agent-runner run`.
@Suite(.timeLimit(.minutes(2)))
struct DashboardTests {
    static let lampID = "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"
    static let thermostatID = "5b1c7e2a-9d3f-4a6b-8c2d-7e1f9a3b5c4d"

    static let lampYAML = """
        name: Lamp controller
        objects:
          - objectId: \(lampID)
            objectType: com.example.Light
            coreType: CoatyObject
            name: Desk lamp
            brightness: 0.8
        """

    static let thermostatYAML = """
        name: Heating controller
        objects:
          - objectId: \(thermostatID)
            objectType: com.example.Thermostat
            coreType: CoatyObject
            name: Hall thermostat
            targetCelsius: 21.5
        """

    @Test func aHeadlessBrowserShowsBothAgentsOnlineAndTheAdvertisedObjectsWithTheirState() async throws {
        let lampFile = try LongRunningCommandTests.configuration(Self.lampYAML, named: "lamp.yaml")
        let thermostatFile = try LongRunningCommandTests.configuration(Self.thermostatYAML, named: "thermostat.yaml")
        defer {
            for file in [lampFile, thermostatFile] {
                try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
            }
        }
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let url = broker.url.description
                let port = try TestBroker.freeLoopbackPort()
                let dashboardID = TestIDs.make()
                let dashboard = try RunnerProcess.start([
                    "dashboard", "--broker", url, "--identity-id", dashboardID, "--listen", "127.0.0.1:\(port)",
                ])
                defer { dashboard.kill9() }
                #expect(
                    await dashboard.waitForStderr(containing: "Server started and listening"), "Hummingbird's log line")
                // It observes everything before it asks who is there.
                _ = try await watcher.next { $0.sourceID == dashboardID && $0.topic.eventType == .discover }

                let lampAgentID = TestIDs.make()
                let lamp = try RunnerProcess.start([
                    "run", "--config", lampFile.path, "--broker", url, "--identity-id", lampAgentID,
                ])
                defer { lamp.kill9() }
                _ = try await watcher.next { $0.advertises(Self.lampID) }
                let heatingAgentID = TestIDs.make()
                let heating = try RunnerProcess.start([
                    "run", "--config", thermostatFile.path, "--broker", url, "--identity-id", heatingAgentID,
                ])
                defer { heating.kill9() }
                _ = try await watcher.next { $0.advertises(Self.thermostatID) }

                let expected = [
                    #"data-id="\#(lampAgentID)"><td class="agent-name">Lamp controller</td>"#,
                    #"data-id="\#(heatingAgentID)"><td class="agent-name">Heating controller</td>"#,
                    #"<td class="object-name">Desk lamp</td><td class="state">{"brightness":0.8}</td>"#,
                    #"<td class="object-name">Hall thermostat</td><td class="state">{"targetCelsius":21.5}</td>"#,
                    #"<span id="status" class="online">live</span>"#,
                ]
                // The events are in; each attempt is a new page load that renders what the WebSocket pushes.
                var dom = ""
                for _ in 0..<5 {
                    dom = try await Chromium.dumpDOM("http://127.0.0.1:\(port)/")
                    if expected.allSatisfy(dom.contains) { break }
                }
                for text in expected {
                    #expect(dom.contains(text), "\(text) in the rendered page:\n\(dom)")
                }
                if let path = ProcessInfo.processInfo.environment["COATY_DASHBOARD_SCREENSHOT"] {
                    try await Chromium.screenshot("http://127.0.0.1:\(port)/", to: path)
                }

                for process in [heating, lamp, dashboard] { process.send(SIGTERM) }
                for process in [heating, lamp, dashboard] {
                    let outcome = await process.outcome()
                    #expect(outcome.exitCode == 0, "\(outcome)")
                }
            }
        }
    }

    /// A burst far above the page's pace: the dashboard answers snapshots all along, and every
    /// event is either counted or shown as dropped. Nothing here is timed.
    @Test func everyEventOfABurstIsCountedOrShownAsDroppedAndSnapshotsKeepComing() async throws {
        try await TestBroker.withBroker { broker in
            try await Watcher.with(broker) { watcher in
                let port = try TestBroker.freeLoopbackPort()
                let dashboardID = TestIDs.make()
                let dashboard = try RunnerProcess.start([
                    "dashboard", "--broker", broker.url.description, "--identity-id", dashboardID,
                    "--listen", "127.0.0.1:\(port)",
                ])
                defer { dashboard.kill9() }
                #expect(await dashboard.waitForStderr(containing: "Server started and listening"))
                _ = try await watcher.next { $0.sourceID == dashboardID && $0.topic.eventType == .discover }
                let snapshotURL = "http://127.0.0.1:\(port)/snapshot"
                let before = try await Self.snapshot(snapshotURL)
                let count = 20_000
                for number in 0..<count {
                    try watcher.agent.publish(Channel(id: "burst", object: BaseObject(name: "\(number)")))
                }
                try watcher.agent.publish(Channel(id: "burst", object: BaseObject(name: "end of burst")))
                // Each attempt is a snapshot the server makes while the burst comes in.
                var sequences: [Int] = []
                var last = before
                for _ in 0..<20_000 {
                    last = try await Self.snapshot(snapshotURL)
                    sequences.append(last["sequence"]?.intValue ?? 0)
                    if Self.accounted(last) - Self.accounted(before) >= count + 1 { break }
                }
                #expect(Self.accounted(last) - Self.accounted(before) >= count + 1, "\(last["drops"] ?? nil)")
                #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
                let marker = try await Self.snapshot(snapshotURL + "?filter=end%20of%20burst")
                #expect(marker["log"]?["entries"]?[0]?["summary"]?.stringValue?.contains("end of burst") == true)
                dashboard.send(SIGTERM)
                #expect(await dashboard.outcome().exitCode == 0)
            }
        }
    }

    /// Events the dashboard counted plus those it dropped.
    static func accounted(_ snapshot: JSONValue) -> Int {
        (snapshot["received"]?.intValue ?? 0) + (snapshot["drops"]?["observerBuffer"]?.intValue ?? 0)
    }

    static func snapshot(_ url: String) async throws -> JSONValue {
        let answer = try await LongRunningCommandTests.get(url)
        try #require(answer.status == 200, "\(answer)")
        return try JSONValue(parsing: Array(answer.body.utf8))
    }

    @Test func aPortInUseEndsTheDashboardSayingWhatToDo() async throws {
        try await TestBroker.withBroker { broker in
            let port = try TestBroker.freeLoopbackPort()
            let arguments = ["dashboard", "--broker", broker.url.description, "--listen", "127.0.0.1:\(port)"]
            let first = try RunnerProcess.start(arguments)
            defer { first.kill9() }
            #expect(await first.waitForStderr(containing: "Server started and listening"))
            let second = try await RunnerProcess.run(arguments)
            #expect(second.exitCode == 1, "\(second)")
            #expect(second.stderr.contains("cannot serve on 127.0.0.1:\(port)"), "\(second.stderr)")
            #expect(second.stderr.contains("choose another --listen"), "\(second.stderr)")
            first.send(SIGTERM)
            #expect(await first.outcome().exitCode == 0)
        }
    }

    @Test func aListenAddressThatIsNotHostAndPortIsAUsageError() async throws {
        let outcome = try await RunnerProcess.run(["dashboard", "--listen", "8080"])
        #expect(outcome.exitCode == 2, "\(outcome)")
        #expect(outcome.stderr.contains("'8080' is not HOST:PORT, like 127.0.0.1:8080"), "\(outcome.stderr)")
    }
}
