import Agent
import CoreTypes
import TestSupport

/// What the Swift agents do in one scenario: one closure per step label, run in the step's order.
///
/// The step `setup-join` needs no closure: the agents join when they start, before the first
/// step. Each closure sets up its observers (which return once the broker acknowledged the
/// subscription) and then publishes, as the coaty-js agents of the capture did.
struct SessionScript: Sendable {
    /// One step: observe, respond, publish.
    typealias Step = @Sendable (SessionRun) async throws -> Void

    /// The closures by step label.
    var steps: [String: Step]
    /// Changes an agent's configuration (by label) before it is created.
    var configure: @Sendable (String, inout Agent.Configuration) -> Void = { _, _ in }
    /// Publishers (by label) whose messages in a step are compared as a set rather than in
    /// order, each with the reason; the responses they send are then compared as a set at the
    /// requester too.
    var unorderedPublishers: [String: String] = [:]

    init(
        unorderedPublishers: [String: String] = [:],
        configure: @escaping @Sendable (String, inout Agent.Configuration) -> Void = { _, _ in },
        steps: [String: Step]
    ) {
        self.steps = steps
        self.configure = configure
        self.unorderedPublishers = unorderedPublishers
    }
}

// MARK: - Responders the scenarios share

extension SessionRun {
    /// Agent `label` answers every Discover with one Resolve per light that the Discover matches.
    func resolveLights(on label: String) async throws {
        observe(label, via: "observeDiscover", try await agent(label).observeDiscover()) { request in
            for light in SessionFixtures.lights where request.event.matches(light) {
                try request.respond(Resolve(object: light))
            }
        }
    }

    /// Agent `label` observes Discover requests without answering them (its identity is answered
    /// by the agent itself).
    func watchDiscover(on label: String) async throws {
        observe(label, via: "observeDiscover", try await agent(label).observeDiscover())
    }

    /// Agent `label` publishes `discover` and collects its Resolves.
    func discover(from label: String, _ discover: Discover) async throws {
        let responses = try await agent(label).discover(discover, timeout: SessionFixtures.openRequest)
        observe(label, via: "publishDiscover", responses)
    }

    /// Agent `label` publishes `call` and collects its Returns.
    func call(from label: String, _ call: Call) async throws {
        let responses = try await agent(label).call(call, timeout: SessionFixtures.openRequest)
        observe(label, via: "publishCall", responses)
    }
}
