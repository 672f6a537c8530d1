import CoreTypes
import Testing

/// Every `outbound` case of events.json: the Swift equivalent of the coaty-js call must publish
/// exactly the bytes coaty-js published, or throw where coaty-js threw or dropped the event.
@Suite struct OutboundEventVectorTests {
    static let cases = (try? VectorFiles.cases("events.json", group: "outbound")) ?? []

    /// Cases that fail for a reason outside the event layer, each with the reason.
    static let knownIssues: [String: String] = [
        "out-Query-coretypes-filter":
            "ObjectFilter.json (Filters/) writes \"take\" before \"skip\"; coaty-js kept the literal's order, "
            + "\"skip\" first. The payload is equal as JSON, not byte for byte."
    ]

    @Test func vectorsAreLoaded() {
        #expect(Self.cases.count >= 82)
    }

    @Test(arguments: cases)
    func publishesWhatCoatyJSPublishes(_ vector: VectorCase) throws {
        let call = try #require(vector.input["call"]?.stringValue)
        var run = OutboundRun(vector: vector)
        let outcome: Result<[Publication], any Error>
        do {
            guard let publications = try run.swiftEquivalent(of: call) else {
                Issue.record("no Swift equivalent mapped for the coaty-js call \(call)")
                return
            }
            outcome = .success(publications)
        } catch let inexpressible as Inexpressible {
            try Test.cancel(Comment(rawValue: inexpressible.reason))
        } catch {
            outcome = .failure(error)
        }
        let expected = vector.expected
        let expectedPublications = expected["publications"]?.arrayValue ?? []
        let coatyJSRefused = expected["throws"] != nil || (expected["logs"] != nil && expectedPublications.isEmpty)
        switch outcome {
        case .success(let publications):
            #expect(!coatyJSRefused, "coaty-js refused this event: \(expected["throws"] ?? expected["logs"] ?? "")")
            if let reason = Self.knownIssues[vector.name] {
                withKnownIssue(Comment(rawValue: reason)) {
                    expectPublications(publications, equal: expectedPublications)
                }
                // Equal as JSON values nonetheless.
                for (publication, want) in zip(publications, expectedPublications) {
                    #expect(try JSONValue(parsing: publication.payload) == want["json"])
                }
            } else {
                expectPublications(publications, equal: expectedPublications)
            }
        case .failure(let error):
            #expect(coatyJSRefused, "Swift threw \(error) where coaty-js published")
            if let code = Self.expectedCode(for: expected) {
                #expect(
                    (error as? EventError)?.code == code, "coaty-js: \(expected["throws"] ?? expected["logs"] ?? "")")
            }
        }
    }

    /// The error code that corresponds to coaty-js's error text, where it names a specific check.
    /// ("arguments not valid" covers every data check, so any error passes for it.)
    static func expectedCode(for expected: JSONValue) -> EventError.Code? {
        let text = expected["throws"]?.stringValue ?? expected["logs"]?[0]?.stringValue ?? ""
        let table: [(String, EventError.Code)] = [
            ("doesn't match", .responseMismatch), ("not contained in", .responseMismatch),
            ("invalid objectType", .invalidEventFilter), ("not a valid channel identifier", .invalidEventFilter),
            ("not a valid operation name", .invalidEventFilter), ("ioContextName", .invalidEventFilter),
            ("Raw publication topic is invalid", .invalidTopic), ("IO value data format", .incompatibleIoValue),
        ]
        return table.first { text.contains($0.0) }?.1
    }
}

/// A coaty-js call that has no Swift counterpart because Swift's types rule it out.
struct Inexpressible: Error {
    let reason: String
}

/// Runs the Swift equivalent of one outbound vector's coaty-js call.
struct OutboundRun {
    let vector: VectorCase
    var counter = CorrelationCounter()

    var scope: AgentScope { vector.scope }
    var registry: ObjectTypeRegistry { EventFixtures.registry }

    init(vector: VectorCase) {
        self.vector = vector
    }

    private mutating func request(_ event: some RequestEvent) throws -> [Publication] {
        try event.requestPlan(in: scope, makeCorrelationID: { counter.next() }).publications
    }

    /// The request injected before a response case, and its correlation id.
    private var requestPayload: JSONValue {
        get throws { try JSONValue(parsing: vector.input["requestPayload"]?.stringValue ?? "") }
    }
    private var requestTopic: String { vector.input["requestTopic"]?.stringValue ?? "" }

    private func respond<R: RequestEvent>(to request: R, with response: R.Response) throws -> [Publication] {
        [try request.responsePublication(response, correlationID: try correlationLevel(of: requestTopic), in: scope)]
    }

    /// The IO value publication of a source associated by the injected Associate (if any).
    private func ioValue(_ value: IoValue, from source: IoSource) throws -> [Publication] {
        guard vector.input["requestPayload"] != nil else { return [] }  // not associated: nothing to publish
        let associate = try Associate(ioContextName: "kitchen", json: requestPayload)
        guard associate.ioSourceID == source.objectId, let route = associate.associatingRoute else { return [] }
        return [try value.publication(on: route, from: source)]
    }

    private static let ioSource = IoSource(objectId: EventFixtures.ioSource, name: "Temperature", valueType: "number")
    private static let rawIoSource = IoSource(
        objectId: EventFixtures.rawIoSource, name: "Raw temperature", valueType: "bytes", useRawIoValues: true)

    // swift-format-ignore
    /// The table: coaty-js call text → Swift. `nil` means the call is not mapped yet.
    mutating func swiftEquivalent(of call: String) throws -> [Publication]? {
        typealias F = EventFixtures
        switch call {
        // MARK: Advertise
        case "AdvertiseEvent.withObject(light, {source:'vectors', n:1})":
            return try Advertise(object: F.light(), privateData: ["source": "vectors", "n": 1]).publications(in: scope)
        case "AdvertiseEvent.withObject(task)":
            return try Advertise(object: F.task()).publications(in: scope)
        case "AdvertiseEvent.withObject({...light, externalId: undefined, extra: [1, undefined]})":
            // An undefined member is simply not there; an undefined array element is null.
            return try Advertise(object: F.object(F.lightJSON, with: ["extra": [1, nil]])).publications(in: scope)
        case "AdvertiseEvent.withObject(light, 'x')":
            throw Inexpressible(reason: "privateData is a JSONObject in Swift; a string cannot be passed")
        case "AdvertiseEvent.withObject(light, null)":
            throw Inexpressible(reason: "privateData is JSONObject?; nil means absent, there is no null privateData")
        case "AdvertiseEvent.withObject({...light, name: undefined})":
            return try Advertise(object: NamelessObject(base: F.light())).publications(in: scope)
        case "AdvertiseEvent.withObject({...light, objectType:'com/example'})":
            return try Advertise(object: F.object(F.lightJSON, with: ["objectType": "com/example"])).publications(in: scope)

        // MARK: Deadvertise
        case "DeadvertiseEvent.withObjectIds(obj1, obj2)":
            return [try Deadvertise(objectIDs: [F.obj1, F.obj2]).publication(in: scope)]
        case "DeadvertiseEvent.withObjectIds()":
            return [try Deadvertise(objectIDs: []).publication(in: scope)]
        case "DeadvertiseEvent.withObjectIds('')":
            return [try Deadvertise(objectIDs: [""]).publication(in: scope)]

        // MARK: Channel
        case "ChannelEvent.withObject('lights', light)":
            return [try Channel(id: "lights", object: F.light()).publication(in: scope)]
        case "ChannelEvent.withObjects('lights', [light, coreObj])":
            return [try Channel(id: "lights", objects: [F.light(), F.coreObj()]).publication(in: scope)]
        case "ChannelEvent.withObject('a/b', light)":
            return [try Channel(id: "a/b", object: F.light()).publication(in: scope)]
        case "ChannelEvent.withObject('', light)":
            return [try Channel(id: "", object: F.light()).publication(in: scope)]

        // MARK: Discover
        case "DiscoverEvent.withExternalIdAndCoreTypes('ext-1', ['CoatyObject','User'])":
            return try request(Discover(externalID: "ext-1", coreTypes: [.coatyObject, .user]))
        case "DiscoverEvent.withExternalIdAndObjectTypes('ext-1', ['com.example.Light'])":
            return try request(Discover(externalID: "ext-1", objectTypes: ["com.example.Light"]))
        case "DiscoverEvent.withObjectId(obj1)":
            return try request(Discover(objectID: F.obj1))
        case "DiscoverEvent.withExternalAndObjectId('ext-1', obj1)":
            return try request(Discover(externalID: "ext-1", objectID: F.obj1))
        case "DiscoverEvent.withCoreTypes(['Identity'])":
            return try request(Discover(coreTypes: [.identity]))
        case "DiscoverEvent.withObjectTypes(['com.example.Light','com.example.Other'])":
            return try request(Discover(objectTypes: ["com.example.Light", "com.example.Other"]))
        case "DiscoverEvent.withObjectId('')":
            return try request(Discover(objectID: ""))
        case "DiscoverEvent.withCoreTypes(['Light'])":
            #expect(CoreType(rawValue: "Light") == nil)
            throw Inexpressible(reason: "core types are the CoreType enum; 'Light' is not one of its cases")
        case "new DiscoverEventData(undefined, obj1, ['x'])":
            throw Inexpressible(reason: "no Discover initializer combines an object id with type lists")

        // MARK: Resolve (responses to the injected Discover)
        case "ResolveEvent.withObject(light, [coreObj], {hops:1})":
            return try respond(
                to: Discover(json: requestPayload),
                with: Resolve(object: F.light(), relatedObjects: [F.coreObj()], privateData: ["hops": 1]))
        case "ResolveEvent.withRelatedObjects([light, other])":
            return try respond(to: Discover(json: requestPayload), with: Resolve(relatedObjects: [F.light(), F.other()]))
        case "ResolveEvent.withObject(light)":
            return try respond(to: Discover(json: requestPayload), with: Resolve(object: F.light()))
        case "ResolveEvent.withRelatedObjects([])":
            return try respond(to: Discover(json: requestPayload), with: Resolve(relatedObjects: []))
        case "ResolveEvent.withObject(undefined)":
            throw Inexpressible(reason: "Resolve(object:) takes a non-optional object")

        // MARK: Query
        case "QueryEvent.withObjectTypes(['com.example.Light'], {})":
            return try request(Query(objectTypes: ["com.example.Light"], filter: ObjectFilter(json: [:])))
        case "QueryEvent.withCoreTypes(['Task'], {conditions:{and:[['status', filterOp.equals(0)], ['name', filterOp.like('T%')]]}, orderByProperties:[['creationTimestamp','Desc']], skip:1, take:10})":
            let filter = try ObjectFilter(json: [
                "conditions": ["and": [["status", [7, 0]], ["name", [6, "T%"]]]],
                "orderByProperties": [["creationTimestamp", "Desc"]], "skip": 1, "take": 10,
            ])
            return try request(Query(coreTypes: [.task], filter: filter))
        case "QueryEvent.withObjectTypes(['com.example.Light'], {conditions: [['meta','floor'], filterOp.between(1, 3)]})":
            let filter = try ObjectFilter(json: ["conditions": [["meta", "floor"], [4, 1, 3]]])
            return try request(Query(objectTypes: ["com.example.Light"], filter: filter))
        case "QueryEvent.withObjectTypes(['com.example.Light'], {}, [{localProperty:'locationId', asProperty:'location', isOneToOneRelation:true}])":
            let join = try ObjectJoinCondition(json: [
                "localProperty": "locationId", "asProperty": "location", "isOneToOneRelation": true,
            ])
            return try request(Query(objectTypes: ["com.example.Light"], filter: ObjectFilter(json: [:]), joinConditions: [join]))
        case "QueryEvent.withCoreTypes(['CoatyObject'], {conditions:['externalId', filterOp.exists()]})":
            let filter = try ObjectFilter(json: ["conditions": ["externalId", [9]]])
            return try request(Query(coreTypes: [.coatyObject], filter: filter))
        case "QueryEvent.withObjectTypes(['com.example.Light'])":
            throw Inexpressible(
                reason: "a Swift Query always has an objectFilter (default {}), so it never hits coaty-js's "
                    + "TypeError; inbound Queries without objectFilter are rejected (in-Query-no-filter)")
        case "QueryEvent.withObjectTypes(['com.example.Light'], null)":
            throw Inexpressible(reason: "Query's filter is a non-optional ObjectFilter; there is no null filter")
        case "QueryEvent.withCoreTypes(['Task'], {orderByProperties:[['name','asc']]})":
            return try request(Query(coreTypes: [.task], filter: ObjectFilter(json: ["orderByProperties": [["name", "asc"]]])))

        // MARK: Retrieve (responses to the injected Query)
        case "RetrieveEvent.withObjects([light])":
            return try respond(to: Query(json: requestPayload), with: Retrieve(objects: [F.light()]))
        case "RetrieveEvent.withObjects([light, light], {total: 2})":
            return try respond(to: Query(json: requestPayload), with: Retrieve(objects: [F.light(), F.light()], privateData: ["total": 2]))
        case "RetrieveEvent.withObjects([other])":
            return try respond(to: Query(json: requestPayload), with: Retrieve(objects: [F.other()]))
        case "RetrieveEvent.withObjects(light)":
            throw Inexpressible(reason: "Retrieve(objects:) takes an array; a single object does not type-check")

        // MARK: Update
        case "UpdateEvent.withObject(light)":
            return try request(Update(object: F.light()))
        case "UpdateEvent.withObject({...light, objectId: ''})":
            return try request(Update(object: ObjectWithID(base: F.light(), objectId: "")))
        case "UpdateEvent.withObject({...light, objectType:'a+b'})":
            return try request(Update(object: F.object(F.lightJSON, with: ["objectType": "a+b"])))

        // MARK: Complete (responses to the injected Update)
        case "CompleteEvent.withObject(light)":
            return try respond(to: Update(json: requestPayload, registry: registry), with: Complete(object: F.light()))
        case "CompleteEvent.withObject({...light, isOn:false}, {by:'B'})":
            return try respond(
                to: Update(json: requestPayload, registry: registry),
                with: Complete(object: F.object(F.lightJSON, with: ["isOn": false]), privateData: ["by": "B"]))
        case "CompleteEvent.withObject(other)":
            return try respond(to: Update(json: requestPayload, registry: registry), with: Complete(object: F.other()))

        // MARK: Call
        case "CallEvent.with('switchLight')":
            return try request(Call(operation: "switchLight"))
        case "CallEvent.with('add', [1, 2.5, 'x', null])":
            return try request(Call(operation: "add", parameters: .positional([1, 2.5, "x", nil])))
        case "CallEvent.with('switchLight', {state:'off'}, {conditions:['floor', filterOp.equals(3)]})":
            return try request(
                Call(operation: "switchLight", parameters: .named(["state": "off"]),
                     filter: ContextFilter(json: ["conditions": ["floor", [7, 3]]])))
        case "CallEvent.with('reset', undefined, {conditions:{or:[['floor', filterOp.lessThan(2)], ['building', filterOp.in(['B1','B2'])]]}})":
            let filter = try ContextFilter(json: ["conditions": ["or": [["floor", [0, 2]], ["building", [13, ["B1", "B2"]]]]]])
            return try request(Call(operation: "reset", filter: filter))
        case "CallEvent.with('op', [], {})":
            return try request(Call(operation: "op", parameters: .positional([]), filter: ContextFilter(json: [:])))
        case "CallEvent.with('op', null)":
            throw Inexpressible(reason: "Call parameters are Parameters?; nil means absent, there is no null")
        case "CallEvent.with('a/b')":
            return try request(Call(operation: "a/b"))
        case "CallEvent.with('op', [], {conditions: 5})":
            return try request(Call(operation: "op", parameters: .positional([]), filter: ContextFilter(json: ["conditions": 5])))

        // MARK: Return (responses to the injected Call)
        case "ReturnEvent.withResult({isOn:true})":
            return try respond(to: injectedCall(), with: Return(result: ["isOn": true]))
        case "ReturnEvent.withResult(null)":
            return try respond(to: injectedCall(), with: Return(result: nil))
        case "ReturnEvent.withResult(false)":
            return try respond(to: injectedCall(), with: Return(result: false))
        case "ReturnEvent.withResult(0)":
            return try respond(to: injectedCall(), with: Return(result: 0))
        case "ReturnEvent.withResult([1, [2], {a: null}])":
            return try respond(to: injectedCall(), with: Return(result: [1, [2], ["a": nil]]))
        case "ReturnEvent.withResult(undefined)":
            throw Inexpressible(reason: "Return(result:) takes a JSONValue; undefined is not a JSON value")
        case "ReturnEvent.withError(1, 'light is broken', {lightId: obj1})":
            return try respond(
                to: injectedCall(),
                with: Return(errorCode: 1, message: "light is broken", executionInfo: ["lightId": .string(F.obj1)]))
        case "ReturnEvent.withError(undefined, 'x')":
            throw Inexpressible(reason: "a Return error's code is a JSONValue; undefined is not a JSON value")
        case "ReturnEvent.withError('E1', 'x')":
            return try respond(to: injectedCall(), with: Return(error: .init(code: "E1", message: "x")))
        case "new ReturnEventData(1, {code:1, message:'m'})":
            throw Inexpressible(reason: "Return.Outcome is either a result or an error, never both")

        // MARK: Raw
        case "RawEvent.withTopicAndPayload('sensors/1/temp', '21.5')":
            return [try Raw(topic: "sensors/1/temp", text: "21.5").publication()]
        case "RawEvent.withTopicAndPayload('bin/data', Buffer<00 ff 10>)":
            return [try Raw(topic: "bin/data", payload: [0x00, 0xFF, 0x10]).publication()]
        case "RawEvent.withTopicAndPayload('j', '{\"a\": 1.0}')":
            return [try Raw(topic: "j", text: #"{"a": 1.0}"#).publication()]
        case "cm.publishRaw('legacy/topic', 'v', true)":
            return [try Raw(topic: "legacy/topic", text: "v", retain: true).publication()]
        case "RawEvent.withTopicAndPayload('a/#', 'x')":
            return [try Raw(topic: "a/#", text: "x").publication()]

        // MARK: Associate
        case "AssociateEvent.with('kitchen', ioSource, ioActor, 'coaty/3/-/IOV/<ioSource>', true, 100)":
            let event = Associate(
                ioContextName: "kitchen", ioSourceID: F.ioSource, ioActorID: F.ioActor,
                associatingRoute: scope.ioRoute(forIoSource: F.ioSource), isExternalRoute: true, updateRate: 100)
            return [try event.publication(in: scope)]
        case "AssociateEvent.with('kitchen', '', ioActor, 'r')":
            return [try Associate(ioContextName: "kitchen", ioSourceID: "", ioActorID: F.ioActor, associatingRoute: "r").publication(in: scope)]
        case "AssociateEvent.with('kitchen', ioSource, ioActor, 'r', false, '100')":
            throw Inexpressible(reason: "updateRate is a Double?; a string does not type-check")

        // MARK: IoValue (the source was associated by the injected Associate, if any)
        case "IoValueEvent.with(ioSource, 21.5)":
            return try ioValue(IoValue(21.5), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, 1.0)":
            return try ioValue(IoValue(1.0), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, 'on')":
            return try ioValue(IoValue("on"), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, null)":
            return try ioValue(IoValue(nil), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, [1, true, 'x'])":
            return try ioValue(IoValue([1, true, "x"]), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, 7) associated on route 'plant/line1/temp'":
            return try ioValue(IoValue(7), from: Self.ioSource)
        case "IoValueEvent.with(ioSource, 1) without association":
            return try ioValue(IoValue(1), from: Self.ioSource)
        case "IoValueEvent.with(rawIoSource, 5)":
            return try ioValue(IoValue(5), from: Self.rawIoSource)

        default:
            return nil
        }
    }

    private func injectedCall() throws -> Call {
        try Call(operation: try eventFilterLevel(of: requestTopic) ?? "", json: requestPayload)
    }
}
