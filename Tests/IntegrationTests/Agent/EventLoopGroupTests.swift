@testable import Agent
import CoreTypes
import Logging
import Synchronization
import Testing
import TestSupport

/// Agents spread over the loops of a `MosquittoEventLoopGroup`: each keeps its own network thread
/// for its socket, its inline handlers and its executor, and they talk across loops as on one.
@Suite(.timeLimit(.minutes(2)))
struct EventLoopGroupTests {
    static let loopCount = 3
    static let agentCount = 6

    @Test
    func agentsOnSeveralLoopsAnswerEachOthersRequestsOnTheirOwnLoop() async throws {
        let group = try MosquittoEventLoopGroup(count: Self.loopCount)
        defer { group.shutdown() }
        try await TestBroker.withBroker { broker in
            let agents = try (0..<Self.agentCount).map { index in
                try Agent(
                    configuration: RunningAgents.configuration("agent \(index)", broker: broker),
                    registry: ObjectTypeRegistry(), logger: Logger(label: "agent \(index)"), eventLoop: group.next())
            }
            let loops = agents.map { $0.client.eventLoop }
            #expect(Set(loops.map { ObjectIdentifier($0) }).count == Self.loopCount)
            for (index, agent) in agents.enumerated() {
                #expect((agent.executor as? MosquittoEventLoop) === group.loops[index % Self.loopCount])
            }
            try await RunningAgents.run(agents) {
                let offLoop = Mutex(0)
                var responders: [InlineResponder] = []
                for (index, agent) in agents.enumerated() {
                    let loop = loops[index]
                    responders.append(
                        try await agent.startServingCall("com.example.whoami.\(index)") { request in
                            if !loop.isCurrentThread { offLoop.withLock { $0 += 1 } }
                            try request.respond(Return(result: .int(index)))
                        })
                }
                // Every agent calls every other, from a task on its own executor.
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    for (index, agent) in agents.enumerated() {
                        tasks.addTask(executorPreference: agent.executor) {
                            #expect(loops[index].isCurrentThread)
                            for other in agents.indices where other != index {
                                let call = Call(operation: "com.example.whoami.\(other)")
                                let answer = try await agent.call(call, timeout: .seconds(30)).first()
                                #expect(answer.event.result == .int(other))
                            }
                        }
                    }
                    try await tasks.waitForAll()
                }
                #expect(offLoop.withLock { $0 } == 0)
                withExtendedLifetime(responders) {}
            }
        }
    }

    @Test
    func agentsWithoutALoopAreSpreadOverTheSharedGroup() throws {
        let shared = try MosquittoEventLoopGroup.shared
        let configuration = Agent.Configuration(identity: Identity(name: "spread"))
        let agents = try (0..<shared.loops.count).map { _ in try Agent(configuration: configuration) }
        // Other tests take loops meanwhile, so two of these may share one; each is of the group.
        let loops = Set(agents.map { ObjectIdentifier($0.client.eventLoop) })
        #expect(loops.isSubset(of: Set(shared.loops.map { ObjectIdentifier($0) })))
    }
}
