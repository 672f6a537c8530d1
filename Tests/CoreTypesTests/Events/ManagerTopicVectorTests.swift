import CoreTypes
import Testing

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
        } catch {
            // coaty-js logs and drops (or throws); nothing goes out.
            #expect(expectedTopics.isEmpty, "Swift refused with \(error)")
            #expect(vector.expected["logs"] != nil || vector.expected["throws"] != nil)
            return
        }
        #expect(publications.map(\.topic) == expectedTopics)
    }

    // swift-format-ignore
    /// The table: coaty-js action text → the Swift publication plan. `nil` when not mapped.
    static func publications(for action: String, _ vector: VectorCase) throws -> [Publication]? {
        typealias F = EventFixtures
        let scope = vector.scope
        var counter = CorrelationCounter()
        func request(_ event: some RequestEvent) throws -> [Publication] {
            let plan = try event.requestPlan(in: scope, makeCorrelationID: { counter.next() })
            return plan.publications
        }
        let requestTopic = vector.input["requestTopic"]?.stringValue ?? ""
        let requestPayload = try vector.input["requestPayload"]?.stringValue.map { try JSONValue(parsing: $0) } ?? .null
        func respond<R: RequestEvent>(to request: R, with response: R.Response) throws -> [Publication] {
            [try request.responsePublication(response, correlationID: try correlationLevel(of: requestTopic), in: scope)]
        }
        let advertisePrefix = "publishAdvertise(AdvertiseEvent.withObject("
        if action.hasPrefix(advertisePrefix), action.hasSuffix("))"), action.dropFirst(advertisePrefix.count).first == "{" {
            // The object is written out as JSON in the action text.
            let json = try JSONValue(parsing: String(action.dropFirst(advertisePrefix.count).dropLast(2)))
            return try Advertise(object: F.object(#require(json.objectValue))).publications(in: scope)
        }
        switch action {
        case "publishAdvertise(custom Light)": return try Advertise(object: F.light()).publications(in: scope)
        case "publishDeadvertise(DeadvertiseEvent.withObjectIds(obj1, obj2))": return [try Deadvertise(objectIDs: [F.obj1, F.obj2]).publication(in: scope)]
        case "publishChannel(ChannelEvent.withObject('lights', Light))": return [try Channel(id: "lights", object: F.light()).publication(in: scope)]
        case "publishChannel(ChannelEvent.withObjects('floor.1:lights', [Light]))": return [try Channel(id: "floor.1:lights", objects: [F.light()]).publication(in: scope)]
        case "publishDiscover(DiscoverEvent.withObjectTypes(['com.example.Light'])).subscribe()": return try request(Discover(objectTypes: ["com.example.Light"]))
        case "publishQuery(QueryEvent.withCoreTypes(['Task'], {})).subscribe()": return try request(Query(coreTypes: [.task]))
        case "publishUpdate(UpdateEvent.withObject(Light)).subscribe()": return try request(Update(object: F.light()))
        case "publishUpdate(UpdateEvent.withObject(core Task)).subscribe()": return try request(Update(object: F.task()))
        case "publishUpdate(UpdateEvent.withObject(Task with objectType com.example.MyTask)).subscribe()": return try request(Update(object: F.object(F.taskJSON, with: ["objectType": "com.example.MyTask"])))
        case "publishCall(CallEvent.with('switchLight', {state:'on'})).subscribe()": return try request(Call(operation: "switchLight", parameters: .named(["state": "on"])))
        case "publishCall(CallEvent.with('a.b-c', [1,2])).subscribe()": return try request(Call(operation: "a.b-c", parameters: .positional([1, 2])))
        case "publishRaw(RawEvent.withTopicAndPayload('sensors/1/temp', '21.5'))": return [try Raw(topic: "sensors/1/temp", text: "21.5").publication()]
        case "publishRaw(RawEvent.withTopicAndPayload('coaty/custom', 'x'))": return [try Raw(topic: "coaty/custom", text: "x").publication()]
        case "publishRaw(RawEvent.withTopicAndPayload('a/+/b', 'x'))": return [try Raw(topic: "a/+/b", text: "x").publication()]
        case "publishRaw(RawEvent.withTopicAndPayload('coatyx/3/-/ADV:Foo/x', 'x'))": return [try Raw(topic: "coatyx/3/-/ADV:Foo/x", text: "x").publication()]
        case "publishAssociate(AssociateEvent.with('kitchen', src, actor, route))":
            let route = scope.ioRoute(forIoSource: F.ioSource)
            return [try Associate(ioContextName: "kitchen", ioSourceID: F.ioSource, ioActorID: F.ioActor, associatingRoute: route).publication(in: scope)]
        case "publishAssociate(AssociateEvent.with('kit/chen', ...))":
            return [try Associate(ioContextName: "kit/chen", ioSourceID: F.ioSource, ioActorID: F.ioActor, associatingRoute: "r").publication(in: scope)]
        case "resolve(ResolveEvent.withObject(Light))",
            "request arriving on another namespace (only possible when subscribed cross-namespace); response goes to the own namespace":
            return try respond(to: Discover(json: requestPayload), with: Resolve(object: F.light()))
        case "complete(CompleteEvent.withObject(object))":
            let update = try Update(json: requestPayload, registry: F.registry)
            return try respond(to: update, with: Complete(object: update.object))
        case "returnEvent(ReturnEvent.withResult(true))":
            let call = try Call(operation: try eventFilterLevel(of: requestTopic) ?? "", json: requestPayload)
            return try respond(to: call, with: Return(result: true))
        default: return nil
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
            guard let planned = try Self.subscriptions(for: action, in: scope) else {
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

    // swift-format-ignore
    /// The table: coaty-js action text → the Swift subscription filters. `nil` when not mapped.
    static func subscriptions(for action: String, in scope: AgentScope) throws -> [TopicFilter]? {
        var counter = CorrelationCounter()
        func responses(_ event: some RequestEvent) throws -> [TopicFilter] {
            let plan = try event.requestPlan(in: scope, makeCorrelationID: { counter.next() })
            return plan.exchanges.map(\.responseFilter)
        }
        switch action {
        case "(none; subscriptions made on start)": return []
        case "observeAdvertiseWithObjectType('com.example.Light').subscribe()": return [try ObservationPlan.advertise(objectType: "com.example.Light", in: scope).topicFilter]
        case "observeAdvertiseWithObjectType('coaty.Task').subscribe()":
            let plan = try ObservationPlan.advertise(objectType: "coaty.Task", in: scope)
            #expect(plan.requiredObjectType == "coaty.Task")
            return [plan.topicFilter]
        case "observeAdvertiseWithCoreType('Light')":
            #expect(CoreType(rawValue: "Light") == nil)
            throw Inexpressible(reason: "observing by core type takes the CoreType enum; 'Light' is not one of its cases")
        case "observeAdvertiseWithObjectType('com/example')": return [try ObservationPlan.advertise(objectType: "com/example", in: scope).topicFilter]
        case "observeChannel('lights').subscribe()": return [try ObservationPlan.channel("lights", in: scope).topicFilter]
        case "observeChannel('a#')": return [try ObservationPlan.channel("a#", in: scope).topicFilter]
        case "observeDiscover().subscribe()": return [ObservationPlan.discover(in: scope).topicFilter]
        case "observeUpdateWithCoreType('Task').subscribe()": return [ObservationPlan.update(coreType: .task, in: scope).topicFilter]
        case "observeUpdateWithObjectType('com.example.Light').subscribe()": return [try ObservationPlan.update(objectType: "com.example.Light", in: scope).topicFilter]
        case "observeCall('switchLight').subscribe()": return [try ObservationPlan.call("switchLight", in: scope).topicFilter]
        case "observeCall('')": return [try ObservationPlan.call("", in: scope).topicFilter]
        case "observeRaw('sensors/+/temp').subscribe()": return [try ObservationPlan.raw("sensors/+/temp").topicFilter]
        case "observeRaw('coaty/#').subscribe()": return [try ObservationPlan.raw("coaty/#").topicFilter]
        case "observeRaw('#').subscribe()": return [try ObservationPlan.raw("#").topicFilter]
        case "publishDiscover(DiscoverEvent.withObjectId(obj1)).subscribe()": return try responses(Discover(objectID: EventFixtures.obj1))
        case "publishQuery(QueryEvent.withObjectTypes(['x'], {})).subscribe()": return try responses(Query(objectTypes: ["x"]))
        case "publishUpdate(UpdateEvent.withObject(Light)).subscribe()": return try responses(Update(object: EventFixtures.light()))
        case "publishCall(CallEvent.with('op')).subscribe()": return try responses(Call(operation: "op"))
        case "publishCall(CallEvent.with('op')).subscribe().unsubscribe()":
            throw Inexpressible(
                reason: "subscribing and then unsubscribing the response filter when the last response observer "
                    + "leaves is the agent's subscription bookkeeping, not a pure planning function")
        default: return nil
        }
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
            objectId: scope.identityID, name: config["name"]?.stringValue ?? "Vector Agent",
            externalId: config["externalId"]?.stringValue, custom: custom)
        let plan = try JoinPlan(identity: identity, in: scope)
        let expected = vector.expected
        #expect(plan.clientID == expected["clientId"]?.stringValue)
        let will = try #require(expected["lastWill"])
        expectPublications([plan.lastWill], equal: [will])
        #expect(plan.lastWill.qos == will["qos"]?.intValue)
        #expect(plan.lastWill.retain == will["retain"]?.boolValue)
        expectPublications(plan.publications, equal: expected["joinPublications"]?.arrayValue ?? [])
    }
}
