import CoreTypes
import Testing
import TestSupport

/// The `managerPublication`, `managerSubscription` and `join` cases of topics.json: the topics
/// coaty-js's CommunicationManager publishes and subscribes for each call, planned by the pure
/// planning functions an agent calls.
@Suite struct ManagerTopicVectorTests {
    static let publicationCases = (try? VectorFiles.cases("topics.json", group: "managerPublication")) ?? []
    static let subscriptionCases = (try? VectorFiles.cases("topics.json", group: "managerSubscription")) ?? []
    static let joinCases = (try? VectorFiles.cases("topics.json", group: "join")) ?? []

    @Test func vectorsAreLoaded() {
        #expect(Self.publicationCases.count >= 23)
        #expect(Self.subscriptionCases.count >= 28)
        #expect(Self.joinCases.count >= 4)
    }

    // MARK: - managerPublication

    @Test(arguments: publicationCases)
    func publishesOnTheTopicsCoatyJSUses(_ vector: VectorCase) throws {
        try Self.checkPublication(vector)
    }

    /// Checks one `managerPublication` case (also for vectors from another folder).
    static func checkPublication(_ vector: VectorCase) throws {
        let action = try #require(vector.input["action"]?.stringValue)
        let expectedTopics = try #require(vector.expected["topics"]?.arrayValue).compactMap(\.stringValue)
        let publications: [Publication]
        do {
            guard let planned = try Self.publications(for: action, vector) else {
                Issue.record("no Swift equivalent mapped for \(action)")
                return
            }
            publications = planned
        } catch let inexpressible as Inexpressible {
            try inexpressible.excludeTestCase()
        } catch let unreadable as CallPhrase.Unreadable {
            Issue.record("no Swift equivalent mapped for \(action): \(unreadable)")
            return
        } catch {
            // coaty-js logs and drops (or throws); nothing goes out.
            #expect(expectedTopics.isEmpty, "Swift refused with \(error)")
            #expect(vector.expected["logs"] != nil || vector.expected["throws"] != nil)
            return
        }
        #expect(publications.map(\.topic) == expectedTopics)
    }

    /// coaty-js action → the Swift publication plan, `nil` when the action names no event Swift maps.
    ///
    /// The action is read as a manager call (``ManagerCall``) whose event is built by
    /// ``SwiftEquivalent`` in the case's context. Two rules about the input decide the rest:
    /// an unsubscribed two-way request publishes nothing in coaty-js (cancelled,
    /// ``ManagerCall/unsubscribedRequest``), and
    /// an action in prose on a case that injects a request is the fitting response to it
    /// (``ManagerCall/fittingResponse(to:)``).
    static func publications(for action: String, _ vector: VectorCase) throws -> [Publication]? {
        var agent = VectorAgent(vector)
        guard let call = JSCall(action) else {
            guard vector.input["requestPayload"] != nil else {
                throw Inexpressible(
                    reason: "the action is prose that names no call, and the case injects no request to answer")
            }
            let request = try agent.injectedRequest()
            return [try agent.respond(to: request, with: ManagerCall.fittingResponse(to: request))]
        }
        guard ManagerCall.method(of: call) != nil,
            let event = try SwiftEquivalent.event(for: call, in: agent.callContext)
        else { return nil }
        if case .request = event, !ManagerCall.subscribes(call) { throw ManagerCall.unsubscribedRequest }
        return try agent.publications(of: event)
    }

    // MARK: - managerSubscription

    @Test(arguments: subscriptionCases)
    func subscribesToTheFiltersCoatyJSUses(_ vector: VectorCase) throws {
        try Self.checkSubscription(vector)
    }

    /// Checks one `managerSubscription` case (also for vectors from another folder).
    static func checkSubscription(_ vector: VectorCase) throws {
        let action = try #require(vector.input["action"]?.stringValue)
        let expected = vector.expected
        let scope = vector.scope
        let join = try JoinPlan(identity: EventFixtures.identity(scope.identityID), in: scope)
        #expect(
            join.subscriptions.map(\.rawValue)
                == expected["subscriptionsAfterJoin"]?.arrayValue?.compactMap(\.stringValue))

        let filters: [TopicFilter]
        do {
            guard let planned = try Self.subscriptions(for: action, vector) else {
                Issue.record("no Swift equivalent mapped for \(action)")
                return
            }
            filters = planned
        } catch let inexpressible as Inexpressible {
            try inexpressible.excludeTestCase()
        } catch let unreadable as CallPhrase.Unreadable {
            Issue.record("no Swift equivalent mapped for \(action): \(unreadable)")
            return
        } catch {
            #expect(expected["throws"] != nil || expected["logs"] != nil, "Swift refused with \(error)")
            #expect(expected["added"]?.arrayValue?.isEmpty == true)
            return
        }
        #expect(expected["throws"] == nil, "coaty-js threw \(expected["throws"] ?? "")")
        // A filter the agent already subscribed (at join) is shared, not subscribed again.
        let added = filters.filter { !join.subscriptions.contains($0) }
        #expect(added.map(\.rawValue) == expected["added"]?.arrayValue?.compactMap(\.stringValue))
        #expect(expected["removed"]?.arrayValue?.isEmpty == true)
    }

    /// coaty-js action → the Swift subscription filters. `nil` when not mapped.
    ///
    /// Rules about the input: a parenthesised note instead of a call (`(none; …)`) calls nothing,
    /// so nothing is added; an action that names no call otherwise is cancelled with the reason.
    static func subscriptions(for action: String, _ vector: VectorCase) throws -> [TopicFilter]? {
        if ManagerCall.isNote(action) { return [] }
        guard let call = JSCall(action) else {
            throw Inexpressible(reason: "the action is prose that names no call")
        }
        if call.trailer.contains(".unsubscribe()") {
            throw Inexpressible(
                reason: "subscribing and then unsubscribing the response filter when the last response observer "
                    + "leaves is the agent's subscription bookkeeping, not a pure planning function")
        }
        var agent = VectorAgent(vector)
        if ManagerCall.method(of: call) != nil {
            guard let event = try SwiftEquivalent.event(for: call, in: agent.callContext) else { return nil }
            // Only two-way requests subscribe (to their response topics); one-way events add nothing.
            guard case .request(let request) = event else { return [] }
            guard ManagerCall.subscribes(call) else { throw ManagerCall.unsubscribedRequest }
            return try agent.plan(request).exchanges.map(\.responseFilter)
        }
        return try ObservationEquivalent.plan(for: call, in: vector.scope).map { [$0.topicFilter] }
    }

    // MARK: - join

    @Test(arguments: joinCases)
    func joinsAsCoatyJSDoes(_ vector: VectorCase) throws {
        try Self.checkJoin(vector)
    }

    /// Checks one `join` case (also for vectors from another folder).
    static func checkJoin(_ vector: VectorCase) throws {
        let scope = vector.scope
        // coaty-js merges `common.agentIdentity` (input.identity) into {objectId, name: "Coaty Agent"}.
        let config = vector.input["identity"]?.objectValue ?? [:]
        var custom = config
        for key in ["name", "externalId"] { custom[key] = nil }
        let identity = Identity(
            objectID: scope.identityID, name: config["name"]?.stringValue ?? "Vector Agent",
            externalID: config["externalId"]?.stringValue, custom: custom)
        let plan = try JoinPlan(identity: identity, in: scope)
        let expected = vector.expected
        #expect(plan.clientID == expected["clientId"]?.stringValue)
        let will = try #require(expected["lastWill"])
        expectPublications([plan.lastWill], equal: [will])
        #expect(plan.lastWill.qos.rawValue == will["qos"]?.intValue)
        #expect(plan.lastWill.retain == will["retain"]?.boolValue)
        expectPublications(plan.publications, equal: expected["joinPublications"]?.arrayValue ?? [])
    }
}
