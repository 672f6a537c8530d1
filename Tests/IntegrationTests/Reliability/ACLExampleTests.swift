import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// The example ACL of the README's Security section, run against a real mosquitto: it must do what
/// the README says it does.
@Suite(.timeLimit(.minutes(2)))
struct ACLExampleTests {
    /// The ACL text of the README's code block that starts with `# Coaty ACL example`.
    static func readmeACL() throws -> String {
        let readme = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let blocks = text.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        let block = try #require(
            blocks.first { $0.drop(while: \.isNewline).hasPrefix("# Coaty ACL example") },
            "README.md has no code block starting with '# Coaty ACL example'")
        return block.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
    }

    func configuration(_ name: String, broker: TestBroker, username: String) -> Agent.Configuration {
        var configuration = Reliability.configuration(name, broker: broker)
        configuration.namespace = "plant-1"
        configuration.broker.username = username
        configuration.broker.password = "\(username)-password"
        return configuration
    }

    @Test func theReadmeACLLetsTheDashboardWatchAndAskButNotAct() async throws {
        let files = try BrokerSecurityFiles()
        defer { files.remove() }
        let users = ["plant1-agent", "plant1-dashboard"]
        let passwords = try await files.passwordFile(users.map { ($0, "\($0)-password") })
        let acl = try files.aclFile(try Self.readmeACL())
        let brokerConfiguration = [
            "allow_anonymous false", "password_file \(passwords)", "acl_file \(acl)", AuthorizationTests.queueLimit,
        ]
        try await TestBroker.withBroker(extraConfiguration: brokerConfiguration) { broker in
            let agent = try Agent(configuration: configuration("Controller", broker: broker, username: "plant1-agent"))
            let dashboard = try Agent(
                configuration: configuration("Dashboard", broker: broker, username: "plant1-dashboard"))
            try await RunningAgents.run([agent, dashboard]) {
                // The dashboard sees the agent's events and can ask it.
                let alarmsAtDashboard = try await dashboard.observeChannel("alarms")
                let alarmsAtAgent = try await agent.observeChannel("alarms")
                try agent.publish(Reliability.numbered(1, on: "alarms"))
                var dashboardIterator = alarmsAtDashboard.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await dashboardIterator.next())) == 1)
                let resolve = try await dashboard.discover(
                    Discover(objectID: agent.identity.objectID), timeout: .seconds(30)
                ).first()
                #expect(resolve.event.object?.objectID == agent.identity.objectID)
                // The agent can ask the dashboard too: it answers Discovers for its identity.
                let dashboardIdentity = try await agent.discover(
                    Discover(objectID: dashboard.identity.objectID), timeout: .seconds(30)
                ).first()
                #expect(dashboardIdentity.event.object?.objectID == dashboard.identity.objectID)

                // The dashboard cannot act: its Channel event is dropped by the broker. Its Discover, sent
                // after it, reached the agent before the agent's own next Channel event did.
                try dashboard.publish(Reliability.numbered(2, on: "alarms"))
                _ = try await dashboard.discover(Discover(objectID: agent.identity.objectID), timeout: .seconds(30))
                    .first()
                try agent.publish(Reliability.numbered(3, on: "alarms"))
                var agentIterator = alarmsAtAgent.makeAsyncIterator()
                #expect(try Reliability.number(of: try #require(await agentIterator.next())) == 1)
                #expect(try Reliability.number(of: try #require(await agentIterator.next())) == 3)
                #expect(dashboard.connectionState == .online)
            }
        }
    }
}
