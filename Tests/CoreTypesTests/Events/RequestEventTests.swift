import CoreTypes
import Testing

/// Two-way requests beyond the vectors: Discover shapes, response checks, request plans, Return.
@Suite struct RequestEventTests {
    typealias F = EventFixtures
    let scope = AgentScope(identityID: EventFixtures.agentA)

    private func text(_ event: some CoatyEvent) throws -> String {
        String(decoding: try event.payload(), as: UTF8.self)
    }

    // MARK: - Discover

    @Test func discoverWritesOnlyTheMembersOfItsShape() throws {
        #expect(try text(Discover(objectID: "o")) == #"{"objectId":"o"}"#)
        #expect(try text(Discover(externalID: "e")) == #"{"externalId":"e"}"#)
        #expect(
            try text(Discover(externalID: "e", objectTypes: ["t"], coreTypes: [.user]))
                == #"{"externalId":"e","objectTypes":["t"],"coreTypes":["User"]}"#)
        #expect(try text(Discover(externalID: "e", objectID: "o")) == #"{"externalId":"e","objectId":"o"}"#)
        #expect(try text(Discover(coreTypes: [])) == #"{"coreTypes":[]}"#)
    }

    @Test func discoverPredicatesFollowTheIDs() {
        #expect(Discover(objectID: "o").isDiscoveringObjectID)
        #expect(Discover(externalID: "e").isDiscoveringExternalID)
        #expect(Discover(externalID: "e", objectID: "o").isDiscoveringExternalAndObjectID)
        #expect(Discover(objectTypes: ["t"]).isDiscoveringTypes)
    }

    @Test func discoverRejectsAnEmptyObjectTypeBeforePublishing() {
        let error = #expect(throws: EventError.self) { try Discover(objectTypes: [""]).payload() }
        #expect(error?.code == .invalidMember)
        #expect(error?.field == "objectTypes[0]")
    }

    @Test(arguments: [
        (#"{}"#, EventError.Code.missingMember),
        (#"{"objectId":null}"#, .invalidMember),
        (#"{"objectId":"o","objectTypes":["t"]}"#, .conflictingMembers),
        (#"{"externalId":"e","objectId":"o","coreTypes":["User"]}"#, .conflictingMembers),
        (#"{"externalId":"e","objectId":null}"#, .invalidMember),
    ])
    func discoverDecodingRejectsEverythingButTheFourShapes(json: String, code: EventError.Code) throws {
        let error = #expect(throws: EventError.self) { try Discover(json: JSONValue(parsing: json)) }
        #expect(error?.code == code)
        #expect(error?.eventType == .discover)
    }

    @Test func discoverMatchesObjectsByEveryRestriction() throws {
        let light = try F.light()
        #expect(Discover(objectID: F.obj1).matches(light))
        #expect(!Discover(objectID: F.obj2).matches(light))
        #expect(Discover(objectTypes: ["com.example.Light"]).matches(light))
        #expect(!Discover(coreTypes: [.task]).matches(light))
        #expect(!Discover(externalID: "x").matches(light))
    }

    @Test func resolveChecksLookOnlyAtTheObject() throws {
        let discover = Discover(objectID: F.obj2)
        #expect(!discover.accepts(Resolve(object: try F.light())))
        #expect(discover.accepts(Resolve(relatedObjects: [try F.light()])))
        // coaty-js tests the ids for truthiness: an empty objectId restricts nothing.
        #expect(Discover(objectID: "").accepts(Resolve(object: try F.light())))
        // An empty core type list admits no object.
        let error = #expect(throws: EventError.self) { try Discover(coreTypes: []).check(Resolve(object: F.light())) }
        #expect(error?.code == .responseMismatch)
        #expect(error?.eventType == .resolve)
        #expect(error?.field == "object.coreType")
    }

    // MARK: - Responses

    @Test func responsesGoToTheRespondersNamespaceWithTheRequestsCorrelationID() throws {
        let responder = AgentScope(identityID: F.agentB, namespace: "plant-7")
        let publication = try Discover(coreTypes: [.coatyObject])
            .responsePublication(Resolve(object: F.light()), correlationID: "corr", in: responder)
        #expect(publication.topic == "coaty/3/plant-7/RSV/\(F.agentB)/corr")
    }

    @Test func aResponseWithoutCorrelationIDGoesToTheLiteralUndefinedAsInCoatyJS() throws {
        let publication = try Call(operation: "op").responsePublication(
            Return(result: 1), correlationID: nil, in: scope)
        #expect(publication.topic == "coaty/3/-/RTN/\(F.agentA)/undefined")
    }

    @Test func aResponderCannotPublishAResponseThatDoesNotFit() throws {
        let update = Update(object: try F.light())
        let error = #expect(throws: EventError.self) {
            try update.responsePublication(Complete(object: F.other()), correlationID: "c", in: scope)
        }
        #expect(error?.code == .responseMismatch)
        #expect(error?.field == "object.objectId")
    }

    @Test func everyRetrievedObjectMustBeOfARequestedType() throws {
        let query = Query(coreTypes: [.coatyObject])
        #expect(query.accepts(Retrieve(objects: [try F.light(), try F.other()])))
        #expect(query.accepts(Retrieve(objects: [])))
        let error = #expect(throws: EventError.self) { try query.check(Retrieve(objects: [F.light(), F.task()])) }
        #expect(error?.field == "objects[1].coreType")
    }

    // MARK: - Request plans

    @Test func anUpdateOfACustomTypeIsTwoExchangesPublishedObjectTypeFirst() throws {
        var counter = CorrelationCounter()
        let crossNamespace = AgentScope(identityID: F.agentA, isCrossNamespacing: true)
        let plan = try Update(object: F.light()).requestPlan(in: crossNamespace, makeCorrelationID: { counter.next() })
        #expect(
            plan.exchanges.map(\.correlationID) == [
                "c0de0000-0000-4000-8000-000000000001", "c0de0000-0000-4000-8000-000000000002",
            ])
        #expect(plan.exchanges[0].publication.topic.hasPrefix("coaty/3/-/UPD:CoatyObject/"))
        #expect(plan.exchanges[1].publication.topic.hasPrefix("coaty/3/-/UPD::com.example.Light/"))
        #expect(plan.publications == [plan.exchanges[1].publication, plan.exchanges[0].publication])
        #expect(plan.exchanges[0].responseFilter.rawValue == "coaty/3/+/CPL/+/c0de0000-0000-4000-8000-000000000001")
        #expect(plan.exchanges[0].publication.payload == plan.exchanges[1].publication.payload)
    }

    @Test func anUpdateOfACanonicalTypeIsOneExchange() throws {
        var counter = CorrelationCounter()
        let plan = try Update(object: F.task()).requestPlan(in: scope, makeCorrelationID: { counter.next() })
        #expect(plan.exchanges.count == 1)
        #expect(counter.count == 1)
    }

    @Test func aRequestPlanMakesNoIDWhenTheRequestIsInvalid() throws {
        var counter = CorrelationCounter()
        #expect(throws: EventError.self) {
            try Call(operation: "a+b").requestPlan(in: scope, makeCorrelationID: { counter.next() })
        }
        #expect(counter.count == 0)
    }

    // MARK: - Query

    @Test func aQueryKeepsTheFormOfItsJoinConditions() throws {
        let single =
            #"{"objectTypes":["x"],"objectFilter":{},"objectJoinConditions":{"localProperty":"a","asProperty":"b"}}"#
        #expect(try text(Query(json: JSONValue(parsing: single))) == single)
        let built = Query(
            objectTypes: ["x"], joinConditions: [ObjectJoinCondition(localProperty: "a", asProperty: "b")])
        #expect(
            try text(built)
                == #"{"objectTypes":["x"],"objectFilter":{},"objectJoinConditions":[{"localProperty":"a","asProperty":"b"}]}"#
        )
    }

    @Test func aQueryWithoutFilterSendsTheEmptyFilter() throws {
        #expect(try text(Query(coreTypes: [.task])) == #"{"coreTypes":["Task"],"objectFilter":{}}"#)
    }

    // MARK: - Call and Return

    @Test func callParametersAreReadByPositionOrByName() {
        let positional = Call(operation: "add", parameters: .positional([1, 2]))
        #expect(positional.parameter(at: 1) == 2)
        #expect(positional.parameter(named: "a") == nil)
        let named = Call(operation: "switch", parameters: .named(["state": "on"]))
        #expect(named.parameter(named: "state") == "on")
        #expect(named.parameter(at: 0) == nil)
    }

    @Test func aNullResultIsASuccessNotAMissingResult() throws {
        let decoded = try Return(json: JSONValue(parsing: #"{"result":null,"executionInfo":null}"#))
        #expect(decoded.result == .null)
        #expect(decoded.error == nil)
        #expect(decoded.executionInfo == .null)
        #expect(try text(decoded) == #"{"result":null,"executionInfo":null}"#)
    }

    @Test func aReturnErrorKeepsWhateverCodeAndMessageItCarried() throws {
        let decoded = try Return(json: JSONValue(parsing: #"{"error":{"code":null,"message":"m"}}"#))
        #expect(decoded.error?.code == .null)
        #expect(decoded.error?.integerCode == nil)
        #expect(Return.Failure.invalidParameters.integerCode == -32602)
        #expect(try text(Return(error: .invalidParameters)) == #"{"error":{"code":-32602,"message":"Invalid params"}}"#)
    }
}
