/// An MQTT protocol version.
public struct MQTTVersion: Hashable, Sendable, CustomStringConvertible {
    /// The protocol level byte of CONNECT (4 or 5).
    public let level: Int32

    /// MQTT 3.1.1 (protocol level 4), as coaty-js.
    public static let v311 = MQTTVersion(level: 4)
    /// MQTT 5.
    public static let v5 = MQTTVersion(level: 5)

    /// `3.1.1` or `5`.
    public var description: String { level == 4 ? "3.1.1" : "\(level)" }
}
