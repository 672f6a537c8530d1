@testable import Agent
import CoreTypes
import Logging
import Synchronization
import Testing
import TestSupport

/// `Agent.executor`: handlers that prefer the agent's network thread answer and request like any
/// other, and a task that prefers it sees every event in order.
@Suite(.timeLimit(.minutes(2)))
struct AgentExecutorTests {
    @Test
    func handlersOnTheAgentsExecutorAnswerAndRequest() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("requester", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let calls = try await b.observeCall("com.example.double")
                let responder = Task(executorPreference: b.executor) {
                    for try await request in calls {
                        let value = request.event.parameter(at: 0)?.intValue ?? 0
                        try? request.respond(Return(result: .int(2 * value)))
                    }
                }
                defer { responder.cancel() }
                let results = try await withTaskExecutorPreference(a.executor) {
                    var results: [JSONValue?] = []
                    for value in 1...50 {
                        let call = Call(operation: "com.example.double", parameters: .positional([.int(value)]))
                        results.append(try await a.call(call, timeout: .seconds(30)).first().event.result)
                    }
                    return results
                }
                #expect(results == (1...50).map { .int(2 * $0) })
            }
        }
    }

    /// After a request goes out, the agent's network thread polls for its response, for as long as
    /// the configuration says at most, and stops once the first response is there (the requester
    /// has a loop of its own here, so that no other test's requests count).
    @Test
    func aRequestPollsForItsResponseUntilTheFirstArrives() async throws {
        try await TestBroker.withBroker { broker in
            let loop = try MosquittoEventLoop()
            defer { loop.shutdown() }
            var configuration = RunningAgents.configuration("requester", broker: broker)
            configuration.responseBusyPoll = .milliseconds(200)
            let a = try Agent(configuration: configuration, registry: ObjectTypeRegistry(), logger: Logger(label: "requester"), eventLoop: loop)
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                // The responder answers only once the requester's loop polls: on a loaded machine the
                // response could otherwise arrive before the poll begins (which then never starts).
                let calls = try await b.observeCall("com.example.answer")
                let responder = Task {
                    for try await request in calls {
                        try await yieldUntil { loop.waiting.claimCount > 0 }
                        try request.respond(Return(result: 42))
                    }
                }
                defer { responder.cancel() }
                let before = WaitingStrategy.monotonicNanoseconds()
                let result = try await a.call(Call(operation: "com.example.answer"), timeout: .seconds(30)).first().event.result
                #expect(result == 42)
                #expect(loop.waiting.pollsUntil >= before + 200_000_000)
                // The response ended the claim before it was delivered.
                #expect(loop.waiting.claimCount == 0)

                // A request nobody answers polls until it ends (here at its timeout).
                let unanswered = try await a.call(Call(operation: "com.example.nobody"), timeout: .seconds(1))
                #expect(loop.waiting.claimCount == 1)
                for try await _ in unanswered { Issue.record("nobody answers this call") }
                try await yieldUntil { loop.waiting.claimCount == 0 }
                #expect(loop.waiting.claimCount == 0)
            }
        }
    }

    @Test
    func responsesArePolledForOnlyWithMoreThanOneCPU() {
        let expected: Duration = Agent.Configuration.onlineProcessors() > 1 ? .microseconds(300) : .zero
        #expect(Agent.Configuration.defaultResponseBusyPoll == expected)
        #expect(Agent.Configuration().responseBusyPoll == expected)
    }

    /// A request's clean-up waits until the agent's network thread is next awake, usually after the
    /// caller's next request has gone out. It still runs for every request, from a task on the
    /// agent's executor or in the global pool: a job that runs on the executor in the pass after
    /// finds nothing of them left.
    @Test(arguments: [Agent.ResponseSubscription.perRequest, .namespaceWide], [true, false])
    func endedRequestsReleaseTheirRoutesAndSubscriptions(
        subscription: Agent.ResponseSubscription, onTheExecutor: Bool
    ) async throws {
        try await TestBroker.withBroker { broker in
            var configuration = RunningAgents.configuration("requester", broker: broker)
            configuration.responseSubscription = subscription
            let a = try Agent(configuration: configuration)
            let b = try Agent(configuration: RunningAgents.configuration("responder", broker: broker))
            try await RunningAgents.run([a, b]) {
                let responder = try await b.startServingCall("com.example.echo") { request in
                    try request.respond(Return(result: request.event.parameter(at: 0) ?? .null))
                }
                defer { responder.cancel() }
                let filtersBefore = Self.openRequests(of: a).filters
                let results = try await withTaskExecutorPreference(onTheExecutor ? a.executor : nil) {
                    var results: [JSONValue?] = []
                    for value in 1...20 {
                        let call = Call(operation: "com.example.echo", parameters: .positional([.int(value)]))
                        results.append(try await a.call(call, timeout: .seconds(30)).first().event.result)
                    }
                    return results
                }
                #expect(results == (1...20).map { .int($0) })
                // The job wakes the loop; after a yield it runs after the work deferred before it.
                let open = await withTaskExecutorPreference(a.executor) {
                    await Task.yield()
                    return Self.openRequests(of: a)
                }
                #expect(open.correlationIDs == 0)
                #expect(open.deadlines == 0)
                let responseFilters = Set(open.filters).subtracting(filtersBefore)
                if subscription == .namespaceWide {
                    #expect(responseFilters.count == 1, "the namespace-wide Return subscription stays: \(responseFilters)")
                } else {
                    #expect(responseFilters.isEmpty, "every per-request subscription is released: \(responseFilters)")
                }
            }
        }
    }

    @Test
    func anObserverOnTheAgentsExecutorGetsEveryEventInOrder() async throws {
        try await TestBroker.withBroker { broker in
            let a = try Agent(configuration: RunningAgents.configuration("publisher", broker: broker))
            let b = try Agent(configuration: RunningAgents.configuration("observer", broker: broker))
            try await RunningAgents.run([a, b]) {
                let channel = try await b.observeChannel("numbers")
                let received = Task(executorPreference: b.executor) {
                    var numbers: [Int] = []
                    for try await event in channel {
                        numbers.append((try? Reliability.number(of: event)) ?? -1)
                        if numbers.count == 500 { break }
                    }
                    return numbers
                }
                for number in 0..<500 {
                    try a.publish(Reliability.numbered(number, on: "numbers"))
                }
                let values = try await received.value
                #expect(values == Array(0..<500))
            }
        }
    }

    /// What the agent's state still holds of requests: response routes, pending requests (with
    /// their deadlines), and the MQTT filters subscribed.
    static func openRequests(of agent: Agent) -> (correlationIDs: Int, deadlines: Int, filters: [String]) {
        agent.state.withLock { ($0.router.openCorrelationIDs.count, $0.machine.requests.count, $0.machine.subscriptions.filters) }
    }
}
