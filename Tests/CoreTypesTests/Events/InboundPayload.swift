import CoreTypes
import Testing

/// coaty-js's `XxxEventData.createFrom(JSON.parse(payload))` verdict in Swift: the payload check
/// alone, by the event type of the topic, before any topic-level or observer check.
enum InboundPayload {
    /// Why the payload of a message on the Coaty topic `topic` is rejected, `nil` when it is
    /// accepted. Errors of the event filter (the event constructor's check of the topic's channel
    /// id, object type or operation) are not payload errors.
    static func error(topic: String, payload: [UInt8]) throws -> (eventType: EventType, error: EventError?) {
        let parsed = try #require(try CoatyTopic(parsing: topic))
        do throws(EventError) {
            _ = try decode(parsed.eventType, filter: parsed.eventTypeFilter ?? "", payload: payload)
            return (parsed.eventType, nil)
        } catch {
            return (parsed.eventType, error.code == .invalidEventFilter ? nil : error)
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
