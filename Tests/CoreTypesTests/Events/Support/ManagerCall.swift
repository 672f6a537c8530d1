import CoreTypes
import Testing

/// A coaty-js `CommunicationManager` call as the vectors write it (`publishAdvertise(event)`,
/// `resolve(event)`, `cm.publishRaw(topic, value, retain)`), read as the event call it sends.
enum ManagerCall {
    /// The manager methods that send an event, with the event factory that stands for the event
    /// when the method is given the event's arguments instead of an event (`publishAdvertise(custom
    /// Light)`, coaty-js's own `publishRaw(topic, value, shouldRetain)` overload). `nil`: the
    /// method takes only an event (the factory to use would be a guess).
    static let methods: [String: String?] = [
        "publishAdvertise": "AdvertiseEvent.withObject", "publishDeadvertise": "DeadvertiseEvent.withObjectIds",
        "publishChannel": "ChannelEvent.withObject", "publishUpdate": "UpdateEvent.withObject",
        "publishCall": "CallEvent.with", "publishAssociate": "AssociateEvent.with",
        "publishRaw": "CommunicationManager.publishRaw", "resolve": "ResolveEvent.withObject",
        "retrieve": "RetrieveEvent.withObjects", "complete": "CompleteEvent.withObject",
        "returnEvent": "ReturnEvent.withResult", "publishDiscover": nil, "publishQuery": nil, "publishIoValue": nil,
    ]

    /// The receivers the vectors write before a manager method (`cm.publishRaw`).
    static let receivers = ["this.communicationManager.", "communicationManager.", "cm."]

    /// `call`'s method name without its receiver, if it is a manager method.
    static func method(of call: JSCall) -> String? {
        let receiver = receivers.first { call.callee.hasPrefix($0) } ?? ""
        let method = String(call.callee.dropFirst(receiver.count))
        return methods.keys.contains(method) ? method : nil
    }

    /// The event factory call that `call` sends: the event argument of a manager call, a manager
    /// call given the event's arguments as the call of the event's factory, or any other call
    /// (an event factory itself) unchanged. `nil` for a manager method that needs an event and
    /// was given none.
    static func eventCall(_ call: JSCall) -> JSCall? {
        guard let method = method(of: call) else { return call }
        if case .call(let inner) = call[0] { return inner }
        guard let factory = methods[method] ?? nil else { return nil }
        return JSCall(callee: factory, arguments: call.arguments, trailer: "")
    }

    /// Whether a two-way request sent by `call` is subscribed, so that coaty-js publishes it:
    /// `publishDiscover(…)` returns a cold RxJS observable that publishes only on `.subscribe()`.
    static func subscribes(_ call: JSCall) -> Bool {
        call.trailer.contains(".subscribe(")
    }

    /// Rule about the input: coaty-js's publishDiscover/Query/Update/Call return a cold RxJS
    /// observable that publishes (and subscribes the response topic) only when subscribed. Swift's
    /// request calls publish at once and have no unsubscribed form.
    static let unsubscribedRequest = Inexpressible(
        reason: "a two-way request that is never subscribed (no .subscribe()) is neither published nor answered "
            + "in coaty-js (RxJS cold observable); Swift's request API always publishes")

    // MARK: - Actions that are not calls

    /// Whether `action` is a parenthesised note instead of a call (`(none; subscriptions made on
    /// start)`): nothing is called, so nothing beyond the agent's start is planned.
    static func isNote(_ action: String) -> Bool {
        action.trimmingSpaces.hasPrefix("(") && JSCall(action) == nil
    }

    /// The response an action written in prose sends to the injected request (`request arriving on
    /// another namespace …; response goes to the own namespace`).
    ///
    /// Rule about the input: the action names no call, so the only reading is "the responder
    /// answers the injected request". The response is one that fits the request (what coaty-js's
    /// `ensureValidResponseParameters` accepts): a Resolve of an object with the discovered id,
    /// external id and type; an empty Retrieve; a Complete of the updated object; a Return of `null`.
    static func fittingResponse(to request: any PlannedRequest) throws -> any CoatyEvent {
        switch request {
        case let discover as Discover:
            var json = EventFixtures.lightJSON
            if let coreType = discover.coreTypes?.first {
                json = try CallPhrase.fixture(of: coreType, phrase: "\(coreType)").objectValue ?? json
            }
            if let objectType = discover.objectTypes?.first { json["objectType"] = .string(objectType) }
            if let objectID = discover.objectID { json["objectId"] = .string(objectID) }
            if let externalID = discover.externalID { json["externalId"] = .string(externalID) }
            return Resolve(object: try SwiftEquivalent.object(.value(.object(json))))
        case is Query:
            return Retrieve(objects: [])
        case let update as Update:
            return Complete(object: update.object)
        case is Call:
            return Return(result: .null)
        default:
            throw Inexpressible(reason: "no fitting response is known for a \(type(of: request).eventType)")
        }
    }
}
