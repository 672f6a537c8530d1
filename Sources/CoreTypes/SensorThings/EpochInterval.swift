/// A time interval in milliseconds on the Unix epoch's time line (UTC): coaty-js's `TimeInterval`,
/// used by the SensorThings types (``Sensor/phenomenonTime``, ``Observation/validTime``).
///
/// coaty-js accepts four forms, all numbers not negative: `start` and `end`; `start` and
/// `duration`; `duration` and `end`; `duration` alone. The initializers make exactly these; a
/// decoded or changed interval of another form fails with an ``ObjectDecodingError`` naming it.
///
/// ```swift
/// let lastHour = EpochInterval(duration: 3_600_000, end: 1_600_000_000_000)
/// // {"duration":3600000,"end":1600000000000}
/// ```
///
/// (Named so as not to clash with Foundation's `TimeInterval`.)
public struct EpochInterval: Hashable, Sendable, Codable {
    /// The start, in milliseconds since the Unix epoch.
    public var start: Double?
    /// The end, in milliseconds since the Unix epoch.
    public var end: Double?
    /// The length, in milliseconds.
    public var duration: Double?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or `start`, `end`, `duration` for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension EpochInterval {
    /// The interval from `start` to `end`.
    public init(start: Double, end: Double) {
        self.init(start: start, end: end, duration: nil, custom: [:], wireOrder: .none)
    }

    /// The interval of `duration` milliseconds from `start`.
    public init(start: Double, duration: Double) {
        self.init(start: start, end: nil, duration: duration, custom: [:], wireOrder: .none)
    }

    /// The interval of `duration` milliseconds that ends at `end`.
    public init(duration: Double, end: Double) {
        self.init(start: nil, end: end, duration: duration, custom: [:], wireOrder: .none)
    }

    /// An interval of `duration` milliseconds, anchored nowhere.
    public init(duration: Double) {
        self.init(start: nil, end: nil, duration: duration, custom: [:], wireOrder: .none)
    }
}

extension EpochInterval: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<EpochInterval>([
        .optional("start", \.start),
        .optional("end", \.end),
        .optional("duration", \.duration),
    ])
    static let wireTemplate = EpochInterval(start: nil, end: nil, duration: nil, custom: [:], wireOrder: .none)

    /// coaty-js's `isValidTimeInterval`.
    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        for (key, value) in [("start", start), ("end", end), ("duration", duration)] {
            if let value, !(value >= 0) { throw context.error(key, "must not be negative, found \(value)") }
        }
        switch (start != nil, end != nil, duration != nil) {
        case (true, true, false), (true, false, true), (false, true, true), (false, false, true): return
        case (true, true, true):
            throw context.error(nil, "has start, end and duration; give start and end, or one of them with duration")
        default:
            throw context.error(
                nil, "must have start and end, start and duration, duration and end, or duration alone")
        }
    }
}
