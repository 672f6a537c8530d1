import CoreTypes
import Synchronization
import Testing

@testable import Agent

/// How the agent's routing hands an event to its observers: an inline handler (`serve…`) at once,
/// a stream observer once the network thread's pass of jobs has run. No broker: the agent is not
/// running, and the message is routed by hand from a job on the agent's executor, as its task does.
struct InlineDeliveryTests {
    @Test
    func anInlineHandlerAnswersBeforeRoutingReturnsAndAStreamGetsTheEventAfterThePass() async throws {
        let agent = try Agent(configuration: Agent.Configuration())
        let order = Mutex<[String]>([])
        let responder = try await agent.startServingCall("com.example.op") { _ in order.withLock { $0.append("inline handler") } }
        defer { responder.cancel() }
        let calls = try await agent.observeCall("com.example.op")
        let consumer = Task {
            for try await _ in calls {
                order.withLock { $0.append("stream") }
                return
            }
        }
        let scope = AgentScope(identityID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
        let plan = try Call(operation: "com.example.op", parameters: .positional([1])).requestPlan(in: scope) {
            "0f9e8d7c-6b5a-4c3d-a2e1-f0e9d8c7b6a5"
        }
        let publication = try #require(plan.publications.first)
        let message = InboundMessage(topic: publication.topic, payload: publication.payload, qos: .atMostOnce, retain: false)
        await withTaskExecutorPreference(agent.executor) {
            agent.route(message)
            order.withLock { $0.append("routing returned") }
        }
        try await consumer.value
        #expect(order.withLock { $0 } == ["inline handler", "routing returned", "stream"])
    }
}
