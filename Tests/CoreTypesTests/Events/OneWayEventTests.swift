import CoreTypes
import Testing

/// One-way events, observation plans and the join plan beyond the vectors.
@Suite struct OneWayEventTests {
    typealias F = EventFixtures
    let scope = AgentScope(identityID: EventFixtures.agentA)

    // MARK: - Payload reading

    @Test func aNullPayloadIsAnErrorValueNamingTheEvent() {
        let error = #expect(throws: EventError.self) { try Advertise(json: .null, registry: F.registry) }
        #expect(error?.code == .notAnObject)
        #expect(error?.eventType == .advertise)
        #expect(error?.description.hasPrefix("Advertise event") == true)
    }

    @Test func aPayloadThatIsNotAnObjectHasNoMembersAsInCoatyJS() throws {
        // coaty-js reads `[].parameters` and `(5).filter` as undefined: a Call with neither is valid.
        #expect(try Call(operation: "op", json: []).parameters == nil)
        #expect(try Call(operation: "op", json: 5).filter == nil)
        #expect(throws: EventError.self) { try Return(json: []) }
    }

    @Test func unknownTopLevelMembersAreIgnored() throws {
        let event = try Deadvertise(json: ["objectIds": ["a"], "extra": true])
        #expect(try event.json() == ["objectIds": ["a"]])
    }

    // MARK: - Advertise and Channel

    @Test func aTaskIsAdvertisedOnceAndACustomTaskTwice() throws {
        #expect(try Advertise(object: F.task()).publications(in: scope).count == 1)
        let myTask = try F.object(F.taskJSON, with: ["objectType": "com.example.MyTask"])
        let topics = try Advertise(object: myTask).publications(in: scope).map(\.topic)
        #expect(topics == ["coaty/3/-/ADV:Task/\(F.agentA)", "coaty/3/-/ADV::com.example.MyTask/\(F.agentA)"])
    }

    @Test func channelOffersItsObjectsInEitherForm() throws {
        let one = Channel(id: "c", object: try F.light())
        let many = Channel(id: "c", objects: [try F.light(), try F.other()])
        #expect(one.objects.count == 1)
        #expect(many.objects.map(\.objectID) == [F.obj1, F.obj2])
    }

    @Test func anEmptyChannelListIsValid() throws {
        let event = try Channel(id: "c", json: ["objects": []], registry: F.registry)
        #expect(event.objects.isEmpty)
    }

    // MARK: - Associate, Raw, IoValue

    @Test func associateNeverSendsIsExternalRoute() throws {
        let event = Associate(
            ioContextName: "ctx", ioSourceID: "s", ioActorID: "a", associatingRoute: "plant/t", isExternalRoute: true,
            updateRate: 2.5)
        #expect(
            try event.json() == ["ioSourceId": "s", "ioActorId": "a", "associatingRoute": "plant/t", "updateRate": 2.5])
        #expect(try Associate(ioContextName: "ctx", json: event.json()).isExternalRoute == false)
    }

    @Test func aDissociationHasNoRoute() throws {
        let event = try Associate(ioContextName: "ctx", json: ["ioSourceId": "s", "ioActorId": "a"])
        #expect(event.associatingRoute == nil)
        #expect(scope.ioRoute(forIoSource: "s") == "coaty/3/-/IOV/s")
    }

    @Test(arguments: ["coaty/custom", "a/+/b", "a/#", "", "x\u{0}y"])
    func rawTopicsOutsideTheRulesAreRefused(topic: String) {
        let error = #expect(throws: EventError.self) { try Raw(topic: topic, text: "x").publication() }
        #expect(error?.code == .invalidTopic)
        #expect(error?.eventType == nil)
    }

    @Test func rawMessagesKeepTheirBytesAndRetainFlag() throws {
        let publication = try Raw(topic: "coatyx/a", payload: [0, 0xFF], retain: true).publication()
        #expect(publication.payload == [0, 0xFF])
        #expect(publication.retain)
    }

    @Test func ioValuesAreBareJSONOrRawBytes() throws {
        let source = IoSource(name: "s", valueType: "number")
        let rawSource = IoSource(name: "r", valueType: "bytes", useRawIoValues: true)
        #expect(try IoValue(["t": 21.5]).publication(on: "r/1", from: source).payload == Array(#"{"t":21.5}"#.utf8))
        #expect(try IoValue.raw([1, 2]).publication(on: "r/1", from: rawSource).payload == [1, 2])
        let error = #expect(throws: EventError.self) { try IoValue.raw([1]).publication(on: "r/1", from: source) }
        #expect(error?.code == .incompatibleIoValue)
        let actor = IoActor(name: "a", valueType: "number")
        #expect(try IoValue(payload: Array("null".utf8), for: actor) == .json(.null))
    }

    // MARK: - Call context rule

    @Test func theCallContextRuleFollowsCoatyJS() throws {
        let context = try F.object([
            "objectId": "ctx", "objectType": "com.example.Room", "coreType": "CoatyObject", "name": "Room", "floor": 3,
        ])
        let onFloor3 = try ContextFilter(json: ["conditions": ["floor", [7, 3]]])
        let onFloor4 = try ContextFilter(json: ["conditions": ["floor", [7, 4]]])
        #expect(try Call(operation: "op").isDelivered(toObserverWithContext: nil))
        #expect(try !Call(operation: "op").isDelivered(toObserverWithContext: context))
        #expect(try Call(operation: "op", filter: onFloor4).isDelivered(toObserverWithContext: nil))
        #expect(try Call(operation: "op", filter: onFloor3).isDelivered(toObserverWithContext: context))
        #expect(try !Call(operation: "op", filter: onFloor4).isDelivered(toObserverWithContext: context))
    }

    @Test func aFilterThatThrowsInCoatyJSThrowsHere() throws {
        let context = try F.light()
        // `In` (13) with an operand that is not an array.
        let filter = try ContextFilter(json: ["conditions": ["name", [13, "Light 1"]]])
        #expect(throws: (any Error).self) {
            try Call(operation: "op", filter: filter).isDelivered(toObserverWithContext: context)
        }
    }

    // MARK: - Observation plans

    @Test func observersOfCustomTypesGetEveryObjectOnTheirTopic() throws {
        let custom = try ObservationPlan.advertise(objectType: "com.example.Light", in: scope)
        #expect(custom.requiredObjectType == nil)
        #expect(custom.admits(try F.other()))
        let core = try ObservationPlan.update(objectType: "coaty.Task", in: scope)
        #expect(core.topicFilter.rawValue == "coaty/3/-/UPD:Task/+/+")
        #expect(core.admits(try F.task()))
        #expect(!core.admits(try F.object(F.taskJSON, with: ["objectType": "com.example.MyTask"])))
    }

    @Test func ioRoutesAreSubscribedExactly() throws {
        #expect(
            try ObservationPlan.ioValue(route: "coaty/3/-/IOV/s", isExternalRoute: false).topicFilter.rawValue
                == "coaty/3/-/IOV/s")
        #expect(throws: EventError.self) {
            try ObservationPlan.ioValue(route: "coaty/3/-/IOV/s", isExternalRoute: true)
        }
        #expect(throws: EventError.self) { try ObservationPlan.ioValue(route: "plant/+", isExternalRoute: true) }
        #expect(throws: EventError.self) { try ObservationPlan.associate(ioContextName: "a/b", in: scope) }
    }

    // MARK: - Join

    @Test func theJoinPlanCoversTheIONodes() throws {
        let identity = Identity(objectID: F.agentA, name: "Agent A")
        let nodeID = "10de0000-0000-4000-8000-000000000001"
        let node = IoNode(
            objectID: nodeID, name: "kitchen", ioActors: [IoActor(name: "a", valueType: "number")],
            parentObjectID: F.agentA)
        let plan = try JoinPlan(identity: identity, ioNodes: [node], in: scope)
        #expect(plan.clientID == "Coaty5c3e1a2b7d4f4e6a9b")
        #expect(plan.lastWill.topic == "coaty/3/-/DAD/\(F.agentA)")
        #expect(
            String(decoding: plan.lastWill.payload, as: UTF8.self) == #"{"objectIds":["\#(F.agentA)","\#(nodeID)"]}"#)
        #expect(plan.subscriptions.map(\.rawValue) == ["coaty/3/-/ASC:kitchen/+", "coaty/3/-/DSC/+/+"])
        #expect(
            plan.publications.map(\.topic) == [
                "coaty/3/-/ADV:Identity/\(F.agentA)", "coaty/3/-/ADV:IoNode/\(F.agentA)",
            ])
    }

    @Test func payloadsKeepNoSpareRoom() throws {
        // Payloads are written into room for a typical event, then handed over at their own size:
        // an agent keeps some for its lifetime (its join plan) or while offline.
        let written = try Deadvertise(objectIDs: [F.agentA]).publication(in: scope)
        #expect(written.payload.capacity < 2 * written.payload.count)
        let plan = try JoinPlan(identity: Identity(objectID: F.agentA, name: "A"), in: scope)
        for publication in plan.publications + [plan.lastWill] {
            #expect(publication.payload.capacity < 2 * publication.payload.count, "\(publication.topic)")
        }
    }

    @Test func anIdentityWithACustomObjectTypeJoinsOnItsCoreTypeOnly() throws {
        let identity = Identity(objectID: F.agentA, objectType: "com.example.AgentIdentity")
        let plan = try JoinPlan(identity: identity, in: scope)
        #expect(plan.publications.map(\.topic) == ["coaty/3/-/ADV:Identity/\(F.agentA)"])
    }
}
