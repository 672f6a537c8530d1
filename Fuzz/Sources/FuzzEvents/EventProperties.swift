@testable import CoreTypes
import FuzzSupport

/// The properties of the event payload decoders for every input, each payload tried as every event.
///
/// - `parsePayload` of each event accepts exactly the JSON texts and rejects the rest as `notJSON`.
/// - IoValue: a raw actor gets the bytes unchanged; a JSON actor gets the value exactly when the
///   bytes are JSON, and its payload reads back as the same JSON.
/// - Each of the twelve JSON events (with a registry of core types only and one with registered
///   types): a rejection names the event; an accepted payload encodes (``CoatyEvent/json()`` never
///   fails for a decoded event), encodes to the same members it was decoded from (except filters,
///   which are normalised), decodes again, and encode → text → decode → encode is a fixed point.
/// - A Channel, Call or Associate on an invalid topic level is never accepted.
/// - A Resolve fits a Discover only with byte-equal ids and object types.
/// - Advertise and Update, and the responses Resolve, Retrieve and Complete, decode from the bytes
///   (`init(payload:registry:)`, `decodeResponse(payload:registry:)`) to what the parsed payload
///   decodes to, or fail with the same error.
/// - Publications of decoded events go out on valid topics that parse back to the event; a request's
///   response subscription matches the topic of a response to it.
enum EventProperties {
    static let scope = AgentScope(identityID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c", namespace: "-")
    static let responderScope = AgentScope(identityID: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", namespace: "-")
    static let validName = "com.example.fuzz"
    static let invalidNames = ["", "a/b", "+", "#", "x\u{0}"]

    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        let parsed = Result { () throws(JSONParseError) in try JSONValue(parsing: input) }
        checkIoValue(input, try? parsed.get())
        checkParsePayload(input, parsed)
        for registry in [Registries.plain, Registries.registered] { checkFromBytes(Array(input), registry) }
        guard case .success(let json) = parsed else { return }
        for registry in [Registries.plain, Registries.registered] {
            let normalised = registry.registeredObjectTypes.isEmpty
            let advertise = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Advertise(json: json, registry: registry)
            }
            let channel = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Channel(id: validName, json: json, registry: registry)
            }
            _ = Trip.run(json) { json throws(EventError) in try Deadvertise(json: json) }
            let discover = Trip.run(json) { json throws(EventError) in try Discover(json: json) }
            let resolve = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Resolve(json: json, registry: registry)
            }
            let query = Trip.run(json, except: ["objectFilter", "objectJoinConditions"]) {
                json throws(EventError) in try Query(json: json)
            }
            let retrieve = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Retrieve(json: json, registry: registry)
            }
            let update = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Update(json: json, registry: registry)
            }
            let complete = Trip.run(json, compare: normalised) { json throws(EventError) in
                try Complete(json: json, registry: registry)
            }
            let call = Trip.run(json, except: ["filter"]) { json throws(EventError) in
                try Call(operation: validName, json: json)
            }
            let returned = Trip.run(json, except: ["error"]) { json throws(EventError) in try Return(json: json) }
            let associate = Trip.run(json) { json throws(EventError) in
                try Associate(ioContextName: validName, json: json)
            }
            checkInvalidNames(json, registry)
            checkPublications(advertise: advertise, channel: channel, associate: associate)
            if let discover {
                checkExchange(discover, responses: [resolve, Resolve(relatedObjects: [])].compactMap { $0 })
            }
            if let query { checkExchange(query, responses: [retrieve, Retrieve(objects: [])].compactMap { $0 }) }
            if let update {
                checkExchange(update, responses: [complete, Complete(object: update.object)].compactMap { $0 })
            }
            if let call {
                checkExchange(call, responses: [returned, Return(result: .null)].compactMap { $0 })
                for context in [advertise?.object, update?.object, nil] {
                    _ = try? call.isDelivered(toObserverWithContext: context)
                }
            }
            if let discover, let object = advertise?.object { _ = discover.matches(object) }
            if let discover, let resolve { checkByteExact(discover, resolve) }
        }
    }

    /// Events and responses decoded from the payload's bytes (an object of a registered
    /// `WireCodable` type read without a tree) are what the parsed payload decodes to: the same
    /// event, or the same error.
    private static func checkFromBytes(_ payload: [UInt8], _ registry: ObjectTypeRegistry) {
        same(Advertise.self, payload) { p throws(EventError) in try Advertise(payload: p, registry: registry) } tree: {
            json throws(EventError) in try Advertise(json: json, registry: registry)
        }
        same(Update.self, payload) { p throws(EventError) in try Update(payload: p, registry: registry) } tree: {
            json throws(EventError) in try Update(json: json, registry: registry)
        }
        let discover = Discover(objectID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
        same(Resolve.self, payload) { p throws(EventError) in try discover.decodeResponse(payload: p, registry: registry) } tree: {
            json throws(EventError) in try discover.decodeResponse(json, registry: registry)
        }
        let query = Query(objectTypes: [Beacon.objectType])
        same(Retrieve.self, payload) { p throws(EventError) in try query.decodeResponse(payload: p, registry: registry) } tree: {
            json throws(EventError) in try query.decodeResponse(json, registry: registry)
        }
        let update = Update(object: BaseObject(name: "x"))
        same(Complete.self, payload) { p throws(EventError) in try update.decodeResponse(payload: p, registry: registry) } tree: {
            json throws(EventError) in try update.decodeResponse(json, registry: registry)
        }
    }

    private static func same<E: CoatyEvent>(
        _ type: E.Type, _ payload: [UInt8], bytes: ([UInt8]) throws(EventError) -> E,
        tree: (JSONValue) throws(EventError) -> E
    ) {
        let fromBytes = Result { () throws(EventError) in try bytes(payload) }
        let fromTree = Result { () throws(EventError) in try tree(E.parsePayload(payload)) }
        switch (fromBytes, fromTree) {
        case (.success(let a), .success(let b)):
            let (x, y) = (try? a.json(), try? b.json())
            require(x != nil && x == y, "\(E.self) from bytes is not the tree's: \(x.map(\.description) ?? "-") vs \(y.map(\.description) ?? "-")")
        case (.failure(let a), .failure(let b)):
            require(
                a.code == b.code && a.field == b.field && a.detail == b.detail,
                "\(E.self) fails differently from bytes (\(a)) and from the tree (\(b))")
        default:
            violated("\(E.self) from bytes: \(fromBytes); from the tree: \(fromTree)")
        }
    }

    /// A Resolve fits a Discover only when ids and object types are equal byte for byte (coaty-js's
    /// `===`), never when they are merely canonically equivalent.
    private static func checkByteExact(_ discover: Discover, _ resolve: Resolve) {
        guard let object = resolve.object, discover.accepts(resolve) else { return }
        if let id = discover.objectID, !id.isEmpty {
            require(object.objectID.utf8.elementsEqual(id.utf8), "objectId '\(object.objectID)' fits '\(id)'")
        }
        if let id = discover.externalID, !id.isEmpty {
            require(object.externalID?.utf8.elementsEqual(id.utf8) == true, "externalId fits '\(id)'")
        }
        if let types = discover.objectTypes {
            require(types.contains { $0.utf8.elementsEqual(object.objectType.utf8) }, "objectType fits \(types)")
        }
    }

    private static func checkIoValue(_ input: UnsafeBufferPointer<UInt8>, _ parsed: JSONValue?) {
        do {
            let raw = try IoValue(payload: input, actorUsesRawValues: true)
            require(raw == .raw(Array(input)) && raw.payload.elementsEqual(input), "a raw IO value changed its bytes")
        } catch {
            violated("a raw IO value was rejected: \(error)")
        }
        do {
            let value = try IoValue(payload: input, actorUsesRawValues: false)
            guard case .json(let json) = value, let parsed else { violated("non-JSON bytes became \(value)") }
            require(json == parsed, "a JSON IO value differs from the parsed payload")
            require((try? JSONValue(parsing: value.payload))?.isSameJSON(as: json) == true, "IO value payload")
        } catch {
            require(parsed == nil && error.code == .notJSON, "JSON bytes rejected as an IO value: \(error)")
        }
    }

    static let eventTypes: [any CoatyEvent.Type] = [
        Advertise.self, Deadvertise.self, Channel.self, Associate.self, Discover.self, Resolve.self, Query.self,
        Retrieve.self, Update.self, Complete.self, Call.self, Return.self,
    ]

    /// `parsePayload` accepts exactly the JSON texts, and rejects the rest as `notJSON` of its event
    /// (one event type per input, chosen by the input's length, so that a run parses only twice).
    private static func checkParsePayload(
        _ input: UnsafeBufferPointer<UInt8>, _ parsed: Result<JSONValue, JSONParseError>
    ) {
        for type in [eventTypes[input.count % eventTypes.count]] {
            do throws(EventError) {
                let json = try type.parsePayload(input)
                require((try? parsed.get()) == json, "\(type).parsePayload accepted what the parser rejects")
            } catch {
                require((try? parsed.get()) == nil, "\(type).parsePayload rejected JSON: \(error)")
                require(error.code == .notJSON && error.eventType == type.eventType, "\(type) parse error \(error)")
            }
        }
    }

    private static func checkInvalidNames(_ json: JSONValue, _ registry: ObjectTypeRegistry) {
        for name in invalidNames {
            require((try? Channel(id: name, json: json, registry: registry)) == nil, "Channel id '\(name)' accepted")
            require((try? Call(operation: name, json: json)) == nil, "Call operation '\(name)' accepted")
            if let associate = try? Associate(ioContextName: name, json: json) {
                require((try? associate.publication(in: scope)) == nil, "Associate on context '\(name)' published")
            }
        }
    }

    private static func checkPublications(advertise: Advertise?, channel: Channel?, associate: Associate?) {
        do {
            if let advertise {
                let publications = try advertise.publications(in: scope)
                require(!publications.isEmpty, "an Advertise without publications")
                for publication in publications { checkTopic(publication, .advertise) }
            }
            if let channel { checkTopic(try channel.publication(in: scope), .channel) }
            if let associate { checkTopic(try associate.publication(in: scope), .associate) }
        } catch {
            violated("a decoded event cannot be published: \(error)")
        }
    }

    /// A request's publications go out on valid topics, and a response to each exchange is received
    /// through the exchange's response subscription.
    private static func checkExchange<R: PlannedRequest>(_ request: R, responses: [R.Response]) {
        var counter = 0
        let plan: RequestPlan
        do {
            plan = try request.requestPlan(in: scope) {
                counter += 1
                return "c0de0000-0000-4000-8000-\(counter)"
            }
        } catch {
            violated("a decoded \(R.self) has no request plan: \(error)")
        }
        require(!plan.exchanges.isEmpty, "\(R.self) plan without exchanges")
        for publication in plan.publications { checkTopic(publication, R.eventType) }
        for response in responses {
            let fits = request.accepts(response)
            for exchange in plan.exchanges {
                do {
                    let published = try request.responsePublication(
                        response, correlationID: exchange.correlationID, in: responderScope)
                    require(fits, "a response that does not fit was published")
                    require(
                        exchange.responseFilter.matches(published.topic),
                        "response topic '\(published.topic)' does not match '\(exchange.responseFilter)'")
                    checkTopic(published, R.Response.eventType)
                } catch {
                    require(!fits || error.code != .responseMismatch, "a fitting response was refused: \(error)")
                }
            }
        }
    }

    private static func checkTopic(_ publication: Publication, _ eventType: EventType) {
        require(MQTTTopic.isValidTopic(publication.topic), "invalid publication topic '\(publication.topic)'")
        do {
            let topic = try CoatyTopic(parsing: publication.topic)
            require(topic?.eventType == eventType, "'\(publication.topic)' does not parse as \(eventType)")
        } catch {
            violated("publication topic '\(publication.topic)' does not parse: \(error)")
        }
        require((try? JSONValue(parsing: publication.payload)) != nil, "publication payload is not JSON")
    }
}

/// One decode → encode → text → decode → encode trip of an event.
enum Trip {
    /// Decodes `json` with `decode` and checks the trip; returns the decoded event.
    ///
    /// - Parameters:
    ///   - compare: Whether the encoded members must equal the members decoded from.
    ///   - except: Members left out of that comparison (normalised on the way).
    static func run<E: CoatyEvent>(
        _ json: JSONValue, compare: Bool = true, except: Set<String> = [],
        _ decode: (JSONValue) throws(EventError) -> E
    ) -> E? {
        let event: E
        do {
            event = try decode(json)
        } catch {
            require(error.eventType == E.eventType, "\(E.self) rejection names \(String(describing: error.eventType))")
            return nil
        }
        let first = encode(event)
        if compare, case .object(let output) = first {
            let input = json.objectValue ?? [:]
            for (key, value) in output where !except.contains(key) {
                require(
                    input[key].map { value.isSameJSON(as: $0) } == true,
                    "\(E.self) member '\(key)' encodes as \(value), decoded from \(input[key].map(\.description) ?? "nothing")"
                )
            }
        }
        let text = first.serialized()
        let second: E
        do {
            second = try decode(try JSONValue(parsing: text))
        } catch {
            violated("encoded \(E.self) does not decode: \(error)\n\(excerpt(text))")
        }
        let secondText = encode(second).serialized()
        require(
            secondText == text, "\(E.self) is not a fixed point\nfirst  \(excerpt(text))\nsecond \(excerpt(secondText))"
        )
        return event
    }

    private static func encode<E: CoatyEvent>(_ event: E) -> JSONValue {
        do {
            return try event.json()
        } catch {
            violated("decoded \(E.self) does not encode: \(error)")
        }
    }
}
