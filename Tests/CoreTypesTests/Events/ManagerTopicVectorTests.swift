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
            try Test.cancel(Comment(rawValue: inexpressible.reason))
        } catch {
            // coaty-js logs and drops (or throws); nothing goes out.
            #expect(expectedTopics.isEmpty, "Swift refused with \(error)")
            #expect(vector.expected["logs"] != nil || vector.expected["throws"] != nil)
            return
        }
        #expect(publications.map(\.topic) == expectedTopics)
    }

    /// The CommunicationManager calls that publish an event given as their argument.
    static let publishingCalls: Set<String> = [
        "publishAdvertise", "publishDeadvertise", "publishChannel", "publishDiscover", "publishQuery", "publishUpdate",
        "publishCall", "publishRaw", "publishAssociate", "publishIoValue", "resolve", "retrieve", "complete",
        "returnEvent",
    ]

    // swift-format-ignore
    /// coaty-js action → the Swift publication plan: `publishX(<event factory call>)` through
    /// ``SwiftEquivalent``, plus the actions the vectors describe in words. `nil` when not mapped.
    static func publications(for action: String, _ vector: VectorCase) throws -> [Publication]? {
        typealias F = EventFixtures
        var agent = VectorAgent(vector)
        switch action {
        case "publishAdvertise(custom Light)":
            return try agent.publications(of: .advertise(Advertise(object: F.light())))
        case "publishUpdate(UpdateEvent.withObject(core Task)).subscribe()":
            return try agent.plan(Update(object: F.task())).publications
        case "publishUpdate(UpdateEvent.withObject(Task with objectType com.example.MyTask)).subscribe()":
            return try agent.plan(Update(object: F.object(F.taskJSON, with: ["objectType": "com.example.MyTask"]))).publications
        case "publishAssociate(AssociateEvent.with('kitchen', src, actor, route))":
            let route = agent.scope.ioRoute(forIoSource: F.ioSource)
            return [try Associate(ioContextName: "kitchen", ioSourceID: F.ioSource, ioActorID: F.ioActor, associatingRoute: route).publication(in: agent.scope)]
        case "publishAssociate(AssociateEvent.with('kit/chen', ...))":
            return [try Associate(ioContextName: "kit/chen", ioSourceID: F.ioSource, ioActorID: F.ioActor, associatingRoute: "r").publication(in: agent.scope)]
        case "complete(CompleteEvent.withObject(object))":
            let update = try Update(json: agent.requestPayload, registry: F.registry)
            return [try agent.respond(to: update, with: Complete(object: update.object))]
        case "request arriving on another namespace (only possible when subscribed cross-namespace); response goes to the own namespace":
            return [try agent.respond(to: agent.injectedRequest(), with: Resolve(object: F.light()))]
        default:
            guard let call = JSCall(action), publishingCalls.contains(call.callee), case .call(let inner) = call[0],
                let event = try SwiftEquivalent.event(for: inner)
            else { return nil }
            if case .request = event, !call.trailer.contains(".subscribe()") {
                // Rule about the input: coaty-js's publishDiscover/Query/Update/Call return a cold
                // RxJS observable that publishes only when subscribed. Swift's request calls publish
                // at once and have no unsubscribed form.
                throw Inexpressible(
                    reason: "a two-way request that is never subscribed (no .subscribe()) is not published by "
                        + "coaty-js (RxJS cold observable); Swift's request API always publishes")
            }
            return try agent.publications(of: event)
        }
    }

    // MARK: - managerSubscription

    @Test(arguments: subscriptionCases)
    func subscribesToTheFiltersCoatyJSUses(_ vector: VectorCase) throws {
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
            try Test.cancel(Comment(rawValue: inexpressible.reason))
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
    static func subscriptions(for action: String, _ vector: VectorCase) throws -> [TopicFilter]? {
        if action == "(none; subscriptions made on start)" { return [] }
        guard let call = JSCall(action) else { return nil }
        if call.trailer.contains(".unsubscribe()") {
            throw Inexpressible(
                reason: "subscribing and then unsubscribing the response filter when the last response observer "
                    + "leaves is the agent's subscription bookkeeping, not a pure planning function")
        }
        if case .call(let inner) = call[0], case .request(let request)? = try SwiftEquivalent.event(for: inner) {
            var agent = VectorAgent(vector)
            return try agent.plan(request).exchanges.map(\.responseFilter)
        }
        return try ObservationEquivalent.plan(for: call, in: vector.scope).map { [$0.topicFilter] }
    }

    // MARK: - join

    @Test(arguments: joinCases)
    func joinsAsCoatyJSDoes(_ vector: VectorCase) throws {
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
