import Agent
import CoreTypes
import Testing

/// `observeRaw` refuses filters a broker would answer by dropping the connection, and those coaty-js
/// refuses, before anything is subscribed (no broker needed: the agent is not even running).
struct ObserveRawValidationTests {
    @Test(arguments: ["a/#/b", "a#", "a+/b", "sensors/+x", "#/"])
    func filtersThatBreakMQTTWildcardRulesAreRefused(filter: String) async throws {
        let agent = try Agent(configuration: Agent.Configuration())
        let error = await #expect(throws: AgentError.self) { try await agent.observeRaw(filter) }
        #expect(error?.code == .invalidEvent)
        #expect(error?.detail.contains("'\(filter)' breaks MQTT's wildcard rules") == true, "\(String(describing: error))")
    }

    @Test(arguments: ["coaty/#", "coaty/3/-/ADV:Object", ""])
    func filtersCoatyJSRefusesAreRefused(filter: String) async throws {
        let agent = try Agent(configuration: Agent.Configuration())
        let error = await #expect(throws: AgentError.self) { try await agent.observeRaw(filter) }
        #expect(error?.code == .invalidEvent)
        #expect(error?.detail.contains("Raw subscription filter") == true, "\(String(describing: error))")
    }
}
