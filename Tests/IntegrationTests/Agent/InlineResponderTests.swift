import Agent
import CoreTypes
import Logging
import Testing
import TestSupport

/// `serveDiscover`, `serveQuery`, `serveUpdate` and `serveCall`: handlers the agent calls as it
/// routes each request, kept for as long as their `InlineResponder` lives.
@Suite(.timeLimit(.minutes(2)))
struct InlineResponderTests {
    @Test
    func everyKindOfRequestIsAnsweredInline() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker), registry: Light.registry())
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker), registry: Light.registry())
            try await RunningAgents.run([a, b]) {
                let lamp = Light(name: "Desk lamp", isOn: true, brightness: 0.5)
                let responders = [
                    try await b.startServingDiscover { request in
                        if request.event.objectID == lamp.objectID { try request.respond(Resolve(object: lamp)) }
                    },
                    try await b.startServingQuery { try $0.respond(Retrieve(objects: [lamp])) },
                    try await b.startServingUpdate(objectType: Light.objectType) { request in
                        try request.respond(Complete(object: request.event.object))
                    },
                    try await b.startServingCall("com.example.double") { request in
                        try request.respond(Return(result: .int(2 * (request.event.parameter(at: 0)?.intValue ?? 0))))
                    },
                ]
                let resolve = try await a.discover(Discover(objectID: lamp.objectID), timeout: .seconds(30)).first()
                #expect(resolve.event.object as? Light == lamp)
                #expect(resolve.sourceID == b.identity.objectID)
                let retrieve = try await a.query(Query(objectTypes: [Light.objectType]), timeout: .seconds(30)).first()
                #expect(retrieve.event.objects.map { $0 as? Light } == [lamp])
                var dimmed = lamp
                dimmed.brightness = 0.1
                let complete = try await a.update(Update(object: dimmed), timeout: .seconds(30)).first()
                #expect(complete.event.object as? Light == dimmed)
                for value in 1...50 {
                    let call = Call(operation: "com.example.double", parameters: .positional([.int(value)]))
                    #expect(try await a.call(call, timeout: .seconds(30)).first().event.result == .int(2 * value))
                }
                responders.forEach { $0.cancel() }
            }
        }
    }

    /// The example of the README (Embedding the library).
    @Test
    func theDocumentedAdderAnswers() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("adder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let agent = b
                try await agent.serveCall("com.example.add") { request in
                    let a = request.event.parameter(named: "a")?.doubleValue ?? 0
                    let b = request.event.parameter(named: "b")?.doubleValue ?? 0
                    try request.respond(Return(result: .double(a + b)))
                } while: {
                    let call = Call(operation: "com.example.add", parameters: .named(["a": 1.5, "b": 2]))
                    let sum = try await a.call(call, timeout: .seconds(30)).first()
                    #expect(sum.event.result?.doubleValue == 3.5)
                }
            }
        }
    }

    @Test
    func aCallIsServedOnlyWhenItsFilterMatchesTheContext() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("upstairs", broker: broker))
            try await RunningAgents.run([a, b]) {
                let room = BaseObject(objectType: "com.example.Room", name: "Room", custom: ["floor": 2])
                let responder = try await b.startServingCall("com.example.switch", context: room) { try $0.respond(Return(result: true)) }
                let downstairs = Call(operation: "com.example.switch", filter: .where("floor", .equals(1)))
                let upstairs = Call(operation: "com.example.switch", filter: .where("floor", .equals(2)))
                await #expect(throws: AgentError.self) { try await a.call(downstairs, timeout: .milliseconds(300)).first() }
                #expect(try await a.call(upstairs, timeout: .seconds(30)).first().event.result == true)
                responder.cancel()
            }
        }
    }

    @Test
    func aHandlerThatThrowsIsLoggedAndTheAgentGoesOnAnswering() async throws {
        try await TestBroker.withBroker { broker in
            let log = LogRecorder()
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker), logger: log.logger)
            try await RunningAgents.run([a, b]) {
                struct Refused: Error {}
                let responder = try await b.startServingCall("com.example.check") { request in
                    guard request.event.parameter(at: 0) == true else { throw Refused() }
                    try request.respond(Return(result: "ok"))
                }
                let refused = Call(operation: "com.example.check", parameters: .positional([false]))
                await #expect(throws: AgentError.self) { try await a.call(refused, timeout: .milliseconds(300)).first() }
                let record = await log.next { $0.message.hasPrefix("Request handler failed") }
                #expect(record?.level == .warning)
                #expect(record?.metadata["error"] == "Refused()")
                #expect(record?.metadata["coaty.event"] == "Call")
                let accepted = Call(operation: "com.example.check", parameters: .positional([true]))
                #expect(try await a.call(accepted, timeout: .seconds(30)).first().event.result == "ok")
                responder.cancel()
            }
        }
    }

    @Test
    func cancellingOrDroppingTheResponderStopsTheAnswers() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let call = Call(operation: "com.example.ping")
                let cancelled = try await b.startServingCall("com.example.ping") { try $0.respond(Return(result: "pong")) }
                #expect(try await a.call(call, timeout: .seconds(30)).first().event.result == "pong")
                let waiter = Task { await cancelled.wait() }
                cancelled.cancel()
                await waiter.value  // wait() returns once the responder has stopped
                await #expect(throws: AgentError.self) { try await a.call(call, timeout: .milliseconds(300)).first() }

                do {
                    let dropped = try await b.startServingCall("com.example.ping") { try $0.respond(Return(result: "pong")) }
                    #expect(try await a.call(call, timeout: .seconds(30)).first().event.result == "pong")
                    _ = dropped
                }
                await #expect(throws: AgentError.self) { try await a.call(call, timeout: .milliseconds(300)).first() }
            }
        }
    }

    @Test
    func waitReturnsWhenTheAgentStopsAndServingAfterwardsThrows() async throws {
        try await TestBroker.withBroker { broker in
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            let responder = try await RunningAgents.run([b]) {
                try await b.startServingQuery { _ in }
            }
            await responder.wait()  // the agent has stopped: returns at once
            let error = await #expect(throws: AgentError.self) { try await b.startServingQuery { _ in } }
            #expect(error?.code == .stopped)
        }
    }
}
