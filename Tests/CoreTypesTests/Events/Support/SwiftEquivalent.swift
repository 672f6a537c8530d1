import CoreTypes
import Testing

/// A coaty-js call that has no Swift counterpart because Swift's types rule it out, or that a
/// written rule about the input excludes. The reason states the rule.
struct Inexpressible: Error {
    let reason: String

    /// Excludes the current test case: the rule is reported as a warning (shown in the console,
    /// which does not list cancelled test cases) and the test case is cancelled with it.
    func excludeTestCase(sourceLocation: SourceLocation = #_sourceLocation) throws -> Never {
        Issue.record(Comment(rawValue: "not applicable: \(reason)"), severity: .warning, sourceLocation: sourceLocation)
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    }
}

/// A Swift event built from a coaty-js event factory call.
enum SwiftEvent {
    case advertise(Advertise)
    case deadvertise(Deadvertise)
    case channel(Channel)
    case associate(Associate)
    case request(any PlannedRequest)
    case response(any CoatyEvent)
    case raw(Raw)
    case ioValue(IoValue, sourceID: String)
}

/// The table from coaty-js event factories to Swift: one entry per factory method, each showing
/// the Swift call that corresponds to it.
///
/// Arguments that Swift's types cannot take (a string where a JSON object is required, `null`
/// where a value is optional, `undefined` where one is required) throw ``Inexpressible`` with the
/// reason. An object that is not a valid Coaty object becomes a ``WireObject``, standing for an
/// application type whose encoding produces that JSON.
enum SwiftEquivalent {
    // swift-format-ignore
    /// The Swift event for a coaty-js factory call, `nil` when the factory is not in the table.
    ///
    /// Phrases and `...` in the arguments are read first (``JSCall/resolved(in:usual:)``), in the
    /// case's `context`, with the ``usualArguments`` of the factory. A manager call
    /// (`publishAdvertise(…)`, `cm.publishRaw(…)`) stands for the event it sends (``ManagerCall``).
    static func event(for call: JSCall, in context: CallContext = CallContext()) throws -> SwiftEvent? {
        guard let factoryCall = ManagerCall.eventCall(call) else { return nil }
        let a = try factoryCall.resolved(in: context, usual: usualArguments[factoryCall.callee] ?? [])
        switch a.callee {
        case "AdvertiseEvent.withObject":
            return .advertise(Advertise(object: try object(a[0]), privateData: try privateData(a[1])))
        case "DeadvertiseEvent.withObjectIds":
            return .deadvertise(Deadvertise(objectIDs: try a.arguments.map(string)))
        case "ChannelEvent.withObject":
            return .channel(Channel(id: try string(a[0]), object: try object(a[1]), privateData: try privateData(a[2])))
        case "ChannelEvent.withObjects":
            return .channel(Channel(id: try string(a[0]), objects: try objects(a[1]), privateData: try privateData(a[2])))
        case "DiscoverEvent.withExternalId":
            return .request(Discover(externalID: try string(a[0])))
        case "DiscoverEvent.withExternalIdAndCoreTypes":
            return .request(Discover(externalID: try string(a[0]), coreTypes: try coreTypes(a[1])))
        case "DiscoverEvent.withExternalIdAndObjectTypes":
            return .request(Discover(externalID: try string(a[0]), objectTypes: try strings(a[1])))
        case "DiscoverEvent.withObjectId":
            return .request(Discover(objectID: try string(a[0])))
        case "DiscoverEvent.withExternalAndObjectId":
            return .request(Discover(externalID: try string(a[0]), objectID: try string(a[1])))
        case "DiscoverEvent.withCoreTypes":
            return .request(Discover(coreTypes: try coreTypes(a[0])))
        case "DiscoverEvent.withObjectTypes":
            return .request(Discover(objectTypes: try strings(a[0])))
        case "new DiscoverEventData":
            return .request(try discover(externalID: a[0], objectID: a[1], objectTypes: a[2], coreTypes: a[3]))
        case "ResolveEvent.withObject":
            return .response(Resolve(object: try object(a[0]), relatedObjects: try optional(a[1], objects), privateData: try privateData(a[2])))
        case "ResolveEvent.withRelatedObjects":
            return .response(Resolve(relatedObjects: try objects(a[0]), privateData: try privateData(a[1])))
        case "QueryEvent.withObjectTypes", "QueryEvent.withCoreTypes":
            guard a[1] != .undefined else {
                throw Inexpressible(
                    reason: "a Swift Query always has an objectFilter (default {}), so it never meets coaty-js's "
                        + "TypeError for a missing filter; inbound Queries without one are rejected")
            }
            let types: Query.Types = a.callee.hasSuffix("CoreTypes") ? .coreTypes(try coreTypes(a[0])) : .objectTypes(try strings(a[0]))
            let filter = try ObjectFilter(json: json(a[1]))
            return .request(Query(types: types, filter: filter, joinConditions: try optional(a[2]) { try ObjectJoinCondition.list(json: json($0)) }))
        case "RetrieveEvent.withObjects":
            return .response(Retrieve(objects: try objects(a[0]), privateData: try privateData(a[1])))
        case "UpdateEvent.withObject":
            return .request(Update(object: try object(a[0])))
        case "CompleteEvent.withObject":
            return .response(Complete(object: try object(a[0]), privateData: try privateData(a[1])))
        case "CallEvent.with":
            return .request(Call(operation: try string(a[0]), parameters: try parameters(a[1]), filter: try optional(a[2]) { try ContextFilter(json: json($0)) }))
        case "ReturnEvent.withResult":
            return .response(Return(result: try json(a[0]), executionInfo: try optional(a[1], json)))
        case "ReturnEvent.withError":
            return .response(Return(error: .init(code: try json(a[0]), message: try json(a[1])), executionInfo: try optional(a[2], json)))
        case "new ReturnEventData":
            return .response(try returnEvent(result: a[0], error: a[1], executionInfo: a[2]))
        case "RawEvent.withTopicAndPayload":
            return .raw(Raw(topic: try string(a[0]), payload: try bytes(a[1]), retain: a[2].json?["retain"]?.boolValue ?? false))
        case "CommunicationManager.publishRaw":  // publishRaw(topic, value, shouldRetain)
            return .raw(Raw(topic: try string(a[0]), payload: try bytes(a[1]), retain: a[2].json?.boolValue ?? false))
        case "AssociateEvent.with":
            return .associate(
                Associate(
                    ioContextName: try string(a[0]), ioSourceID: try string(a[1]), ioActorID: try string(a[2]),
                    associatingRoute: try optional(a[3], string), isExternalRoute: a[4].json?.boolValue ?? false,
                    updateRate: try optional(a[5], number)))
        case "IoValueEvent.with":
            let value: IoValue = if case .bytes(let raw) = a[1] { .raw(raw) } else { .json(try json(a[1])) }
            return .ioValue(value, sourceID: try string(a[0]))
        default:
            return nil
        }
    }

    /// What `...` stands for in a factory's argument list ("the other arguments, as usual"): the
    /// arguments the visible cases pass to that factory, from the position of `...` on.
    static let usualArguments: [String: [JSArgument]] = [
        "AdvertiseEvent.withObject": [.phrase(["light"])],
        "DeadvertiseEvent.withObjectIds": [.phrase(["obj1"]), .phrase(["obj2"])],
        "ChannelEvent.withObject": [.value("lights"), .phrase(["light"])],
        "ChannelEvent.withObjects": [.value("lights"), .value([.object(EventFixtures.lightJSON)])],
        "DiscoverEvent.withObjectId": [.phrase(["obj1"])],
        "ResolveEvent.withObject": [.phrase(["light"])],
        "RetrieveEvent.withObjects": [.value([.object(EventFixtures.lightJSON)])],
        "UpdateEvent.withObject": [.phrase(["light"])],
        "CompleteEvent.withObject": [.phrase(["light"])],
        "CallEvent.with": [.value("switchLight")],
        "AssociateEvent.with": [.value("kitchen"), .phrase(["ioSource"]), .phrase(["ioActor"]), .phrase(["route"])],
        "IoValueEvent.with": [.phrase(["ioSource"]), .value(21.5)],
        "RawEvent.withTopicAndPayload": [.value("sensors/1/temp"), .value("21.5")],
    ]

    // MARK: - Arguments

    static func json(_ argument: JSArgument) throws -> JSONValue {
        guard let value = argument.json else {
            throw Inexpressible(reason: "\(argument) is not a JSON value; Swift takes a JSONValue here")
        }
        return value
    }

    static func optional<T>(_ argument: JSArgument, _ convert: (JSArgument) throws -> T) throws -> T? {
        argument == .undefined ? nil : try convert(argument)
    }

    static func string(_ argument: JSArgument) throws -> String {
        guard let text = argument.json?.stringValue else {
            throw Inexpressible(reason: "Swift takes a String here, not \(argument)")
        }
        return text
    }

    static func number(_ argument: JSArgument) throws -> Double {
        guard let number = argument.json?.numberValue else {
            throw Inexpressible(reason: "Swift takes a Double here, not \(argument)")
        }
        return number
    }

    static func strings(_ argument: JSArgument) throws -> [String] {
        guard let strings = argument.json?.arrayValue?.compactMap(\.stringValue),
            strings.count == argument.json?.arrayValue?.count
        else {
            throw Inexpressible(reason: "Swift takes a [String] here, not \(argument)")
        }
        return strings
    }

    static func coreTypes(_ argument: JSArgument) throws -> [CoreType] {
        try strings(argument).map { name in
            guard let coreType = CoreType(rawValue: name) else {
                throw Inexpressible(reason: "core types are the CoreType enum; '\(name)' is not one of its cases")
            }
            return coreType
        }
    }

    static func privateData(_ argument: JSArgument) throws -> JSONObject? {
        switch argument {
        case .undefined: return nil
        case .value(.object(let members)): return members
        default: throw Inexpressible(reason: "privateData is JSONObject?: \(argument) is neither an object nor absent")
        }
    }

    static func object(_ argument: JSArgument) throws -> any CoatyObject {
        guard case .value(.object(let json)) = argument else {
            throw Inexpressible(reason: "Swift takes a CoatyObject here, not \(argument)")
        }
        return (try? EventFixtures.registry.decodeObject(json)) ?? WireObject(json)
    }

    static func objects(_ argument: JSArgument) throws -> [any CoatyObject] {
        guard let elements = argument.json?.arrayValue else {
            throw Inexpressible(reason: "Swift takes an [any CoatyObject] here, not \(argument)")
        }
        return try elements.map { try object(.value($0)) }
    }

    static func parameters(_ argument: JSArgument) throws -> Call.Parameters? {
        switch argument {
        case .undefined: return nil
        case .value(.array(let values)): return .positional(values)
        case .value(.object(let members)): return .named(members)
        default:
            throw Inexpressible(reason: "Call parameters are Parameters? (array or object); \(argument) is neither")
        }
    }

    static func bytes(_ argument: JSArgument) throws -> [UInt8] {
        switch argument {
        case .bytes(let bytes): return bytes
        case .value(.string(let text)): return Array(text.utf8)
        default: throw Inexpressible(reason: "a Raw payload is bytes or a string, not \(argument)")
        }
    }

    /// `new DiscoverEventData(externalId, objectId, objectTypes, coreTypes)`: one of the four shapes.
    static func discover(externalID: JSArgument, objectID: JSArgument, objectTypes: JSArgument, coreTypes: JSArgument)
        throws -> Discover
    {
        let external = try optional(externalID, string), id = try optional(objectID, string)
        let types = try optional(objectTypes, strings), cores = try optional(coreTypes, self.coreTypes)
        switch (external, id, types, cores) {
        case (nil, let id?, nil, nil): return Discover(objectID: id)
        case (let external?, nil, _, _): return Discover(externalID: external, objectTypes: types, coreTypes: cores)
        case (let external?, let id?, nil, nil): return Discover(externalID: external, objectID: id)
        case (nil, nil, let types?, nil): return Discover(objectTypes: types)
        case (nil, nil, nil, let cores?): return Discover(coreTypes: cores)
        default: throw Inexpressible(reason: "no Discover initializer takes this combination of ids and type lists")
        }
    }

    /// `new ReturnEventData(result, error, executionInfo)`.
    static func returnEvent(result: JSArgument, error: JSArgument, executionInfo: JSArgument) throws -> Return {
        let info = try optional(executionInfo, json)
        switch (result, error) {
        case (.undefined, .value(let error)):
            guard let code = error["code"], let message = error["message"] else {
                throw Inexpressible(reason: "Return.Failure takes a code and a message; \(error) lacks one")
            }
            return Return(error: .init(code: code, message: message), executionInfo: info)
        case (.value(let result), .undefined): return Return(result: result, executionInfo: info)
        default: throw Inexpressible(reason: "Return.Outcome is either a result or an error, never both or neither")
        }
    }
}

/// An object whose wire form is exactly the given JSON: stands for an application type whose
/// `encode(to:)` produces an object that breaks a core type rule (no name, an empty id). No core
/// type can be built that way, so the events' own validation is what refuses it.
struct WireObject: CoatyObject {
    static let coreType = CoreType.coatyObject
    let wire: JSONObject

    init(_ wire: JSONObject) {
        self.wire = wire
    }

    var coreType: CoreType { wire["coreType"]?.stringValue.flatMap(CoreType.init(rawValue:)) ?? .coatyObject }
    var objectID: String { wire["objectId"]?.stringValue ?? "" }
    var objectType: String { wire["objectType"]?.stringValue ?? "" }
    var name: String { wire["name"]?.stringValue ?? "" }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "test-only type"))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(wire))
    }
}
