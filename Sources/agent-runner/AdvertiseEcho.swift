import Agent
import CoreTypes

/// Recognises the second copy of an Advertise: coaty-js sends an Advertise of a custom object type
/// on its core type's topic and on its object type's, so people should see it once.
///
/// The copy has the same source and the same payload as the Advertise just before it, on the other
/// filter. Shared by `monitor` (text output) and `dashboard` (counts, objects and the event log).
struct AdvertiseEcho: Sendable {
    private var last: (source: String, filter: String?, payload: [UInt8])?

    /// Whether `message` repeats the Advertise just before it; an Advertise is remembered for the
    /// next call. Any other event is not an echo.
    mutating func isEcho(_ message: CoatyMessage) -> Bool {
        let topic = message.topic
        guard topic.eventType == .advertise else { return false }
        defer { last = (topic.sourceID, topic.eventTypeFilter, message.payload) }
        guard let last else { return false }
        return last.source == topic.sourceID && last.filter != topic.eventTypeFilter && last.payload == message.payload
    }
}
