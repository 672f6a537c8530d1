/// The pure Coaty model: JSON values, objects, topics, event payloads and filters.
///
/// CoreTypes does no I/O, has no clock, no logging and no tasks.
public enum CoatyProtocol {
    /// The version level of every Coaty MQTT topic (`coaty/3/...`).
    public static let topicVersion = 3
}
