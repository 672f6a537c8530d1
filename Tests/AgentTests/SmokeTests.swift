import Agent
import Testing

@Suite struct AgentSmokeTests {
    @Test func agentModuleLoads() {
        #expect(Bool(true))
    }
}
