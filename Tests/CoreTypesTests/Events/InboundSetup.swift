import CoreTypes
import Testing

/// What happened to one inbound message at a receiving agent, as far as pure functions decide it.
struct InboundVerdict {
    /// The event type named by the topic (`nil` for Raw).
    var eventType: EventType?
    /// Why the payload itself was rejected (coaty-js `createFrom` failed or `JSON.parse` threw).
    var payloadError: EventError?
    /// Why the observer did not get the event, `nil` when it did.
    var rejection: String?
    /// What the observer received, in the vectors' `deliveredData` form.
    var received: JSONValue?

    var isDelivered: Bool { rejection == nil }
}

/// The observer (or open request) a receiving agent set up, from the vectors' `input.setup` text.
enum InboundSetup {
    case advertise(ObservationPlan)
    case update(ObservationPlan)
    /// Any other observer (Deadvertise, Channel, Discover, Query): the payload decides alone.
    case observe(ObservationPlan)
    case call(context: (any CoatyObject)?)
    case raw(filter: String)
    case ioValue(route: String, actorUsesRawValues: Bool)
    case ioState
    case request(any RequestEvent)

    // swift-format-ignore
    /// coaty-js setup → Swift: `observe…(…)` calls through ``ObservationEquivalent``, requests
    /// (`publishDiscover(…)` …) through ``SwiftEquivalent``, and the setups the vectors describe in
    /// words. `nil` when not mapped.
    init?(_ text: String) throws {
        let scope = AgentScope(identityID: EventFixtures.agentA)
        let ioRoute = "coaty/3/-/IOV/7f1e2d3c-4b5a-4c6d-9e8f-1a2b3c4d5e6f"
        let injectedAssociate = "Associate {ioSourceId, ioActorId, associatingRoute: '\(ioRoute)'} injected"
        switch text {
        case "ioContextNodes kitchen with actor ioActor; \(injectedAssociate); observeIoValue(actor)":
            self = .ioValue(route: ioRoute, actorUsesRawValues: false)
        case "ioContextNodes kitchen with actor rawIoActor; \(injectedAssociate); observeIoValue(actor)":
            self = .ioValue(route: ioRoute, actorUsesRawValues: true)
        case "ioContextNodes kitchen with ioActor; observeIoState(ioActor)":
            self = .ioState
        case "observeCall('switchLight', {floor:3,...})":
            // A context object on floor 3 (its other members are elided in the vector).
            let context = try EventFixtures.object([
                "objectId": "6d5c4b3a-2f1e-4d0c-9b8a-7f6e5d4c3b2a", "objectType": "com.example.Room",
                "coreType": "CoatyObject", "name": "Room", "floor": 3,
            ])
            self = .call(context: context)
        default:
            guard let call = JSCall(text) else { return nil }
            if case .call(let inner) = call[0], case .request(let request)? = try SwiftEquivalent.event(for: inner) {
                // The agent publishes the request; its first correlation id is c0de…0001.
                var counter = CorrelationCounter()
                _ = try request.requestPlan(in: scope, makeCorrelationID: { counter.next() })
                self = .request(request)
                return
            }
            guard let plan = try ObservationEquivalent.plan(for: call, in: scope) else { return nil }
            switch call.callee {
            case "observeAdvertiseWithCoreType", "observeAdvertiseWithObjectType": self = .advertise(plan)
            case "observeUpdateWithCoreType", "observeUpdateWithObjectType": self = .update(plan)
            case "observeCall": self = .call(context: nil)
            case "observeRaw": self = .raw(filter: plan.topicFilter.rawValue)
            default: self = .observe(plan)
            }
        }
    }

    /// Feeds one message to the observer.
    func receive(topic: String, payload: [UInt8]) throws -> InboundVerdict {
        switch self {
        case .raw(let filter):
            let received: JSONValue = ["topic": .string(topic), "payloadHex": .string(hex(payload))]
            guard MQTTTopic.matches(topic: topic, filter: filter) else {
                return InboundVerdict(rejection: "topic does not match the Raw filter")
            }
            return InboundVerdict(received: received)
        case .ioValue(let route, let actorUsesRawValues):
            guard topic == route else { return InboundVerdict(eventType: .ioValue, rejection: "another route") }
            do {
                let value = try IoValue(payload: payload, actorUsesRawValues: actorUsesRawValues)
                switch value {
                case .json(let json): return InboundVerdict(eventType: .ioValue, received: ["value": json])
                case .raw(let bytes):
                    return InboundVerdict(eventType: .ioValue, received: ["bytesHex": .string(hex(bytes))])
                }
            } catch {
                return InboundVerdict(eventType: .ioValue, payloadError: error, rejection: "\(error)")
            }
        default:
            return try receiveCoatyEvent(topic: topic, payload: payload)
        }
    }

    private func receiveCoatyEvent(topic: String, payload: [UInt8]) throws -> InboundVerdict {
        let parsed = try #require(try CoatyTopic(parsing: topic))
        let eventType = parsed.eventType
        let filter = parsed.eventTypeFilter ?? ""
        var verdict = InboundVerdict(eventType: eventType)
        let event: any CoatyEvent
        do throws(EventError) {
            event = try Self.decode(eventType, filter: filter, payload: payload)
        } catch {
            // An event-filter error comes from the event constructor, after createFrom accepted the data.
            if error.code != .invalidEventFilter { verdict.payloadError = error }
            verdict.rejection = "\(error)"
            return verdict
        }
        // An IO state observer receives the actor's new IO state, which the agent computes.
        if case .ioState = self {} else { verdict.received = try event.json() }
        verdict.rejection = try rejection(of: event)
        return verdict
    }

    /// Why the observer does not get a decoded event, or `nil`.
    private func rejection(of event: any CoatyEvent) throws -> String? {
        switch self {
        case .advertise(let plan):
            let advertise = try #require(event as? Advertise)
            return plan.admits(advertise.object) ? nil : "object type filtered out locally"
        case .update(let plan):
            let update = try #require(event as? Update)
            return plan.admits(update.object) ? nil : "object type filtered out locally"
        case .call(let context):
            let call = try #require(event as? Call)
            return try call.isDelivered(toObserverWithContext: context) ? nil : "context rule"
        case .request(let request):
            return responseRejection(of: event, to: request)
        default:
            return nil
        }
    }

    private func responseRejection<R: RequestEvent>(of event: any CoatyEvent, to request: R) -> String? {
        guard type(of: event).eventType == R.responseEventType, let response = event as? R.Response else {
            return "a \(type(of: event).eventType) does not answer a \(R.eventType)"
        }
        do {
            try request.check(response)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Decodes an inbound payload by the topic's event type, as an agent's dispatcher does.
    static func decode(_ eventType: EventType, filter: String, payload: [UInt8]) throws(EventError) -> any CoatyEvent {
        let registry = EventFixtures.registry
        switch eventType {
        case .advertise: return try Advertise(json: Advertise.parsePayload(payload), registry: registry)
        case .deadvertise: return try Deadvertise(json: Deadvertise.parsePayload(payload))
        case .channel: return try Channel(id: filter, json: Channel.parsePayload(payload), registry: registry)
        case .associate: return try Associate(ioContextName: filter, json: Associate.parsePayload(payload))
        case .discover: return try Discover(json: Discover.parsePayload(payload))
        case .resolve: return try Resolve(json: Resolve.parsePayload(payload), registry: registry)
        case .query: return try Query(json: Query.parsePayload(payload))
        case .retrieve: return try Retrieve(json: Retrieve.parsePayload(payload), registry: registry)
        case .update: return try Update(json: Update.parsePayload(payload), registry: registry)
        case .complete: return try Complete(json: Complete.parsePayload(payload), registry: registry)
        case .call: return try Call(operation: filter, json: Call.parsePayload(payload))
        case .return: return try Return(json: Return.parsePayload(payload))
        case .ioValue:
            throw EventError(
                code: .invalidTopic, eventType: .ioValue, field: nil, detail: "IO values are not JSON events")
        }
    }
}

func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
}
