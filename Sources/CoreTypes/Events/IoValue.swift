/// An IO value (`IOV`): a value an IO source publishes on its associating route.
///
/// There is no wrapper object: a JSON value goes out as its bare JSON text (`21.5`, `"on"`,
/// `null`), raw bytes go out unchanged. Which form an IO source and actor use is fixed by their
/// `useRawIoValues` flag.
///
/// ```swift
/// let publication = try IoValue(21.5).publication(on: route, from: temperatureSource)
/// let value = try IoValue(payload: message.payload, for: displayActor)   // .json(21.5)
/// ```
public enum IoValue: Sendable, Hashable {
    /// A JSON value (any value, `null` included).
    case json(JSONValue)
    /// Raw bytes.
    case raw([UInt8])

    /// A JSON IO value.
    public init(_ value: JSONValue) {
        self = .json(value)
    }

    /// Decodes an inbound IO value for an actor.
    ///
    /// - Parameters:
    ///   - payload: the message bytes.
    ///   - actorUsesRawValues: the actor's `useRawIoValues` flag; raw actors get the bytes as they are.
    /// - Throws: ``EventError`` with code `EventError.Code.notJSON` when a JSON actor receives
    ///   bytes that are not JSON (coaty-js logs and drops the value).
    public init(payload: some Collection<UInt8>, actorUsesRawValues: Bool) throws(EventError) {
        if actorUsesRawValues {
            self = .raw(Array(payload))
            return
        }
        do {
            self = .json(try JSONValue(parsing: payload))
        } catch {
            throw EventError(code: .notJSON, eventType: .ioValue, field: nil, detail: error.description)
        }
    }

    /// Decodes an inbound IO value for `actor`, as its `useRawIoValues` flag says.
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.notJSON` when a JSON actor receives
    ///   bytes that are not JSON.
    public init(payload: some Collection<UInt8>, for actor: IoActor) throws(EventError) {
        try self.init(payload: payload, actorUsesRawValues: actor.useRawIoValues ?? false)
    }

    /// The payload bytes.
    public var payload: [UInt8] {
        switch self {
        case .json(let value): return value.serialized()
        case .raw(let bytes): return bytes
        }
    }

    /// The publication of this value on an IO source's associating route.
    ///
    /// An agent publishes IO values only while the source has at least one associated actor; the
    /// route is the one from the Associate event.
    ///
    /// - Parameters:
    ///   - route: the associating route.
    ///   - source: the IO source; its `useRawIoValues` flag decides which form is allowed.
    /// - Throws: ``EventError`` with code `EventError.Code.incompatibleIoValue` when a raw source
    ///   gets a JSON value or a JSON source gets raw bytes.
    package func publication(on route: String, from source: IoSource) throws(EventError) -> Publication {
        try publication(on: route, sourceUsesRawValues: source.useRawIoValues ?? false)
    }

    /// The publication of this value on an associating route, for a source with the given
    /// `useRawIoValues` flag.
    ///
    /// - Throws: ``EventError`` with code `EventError.Code.incompatibleIoValue` when the value's
    ///   form does not match the flag.
    package func publication(on route: String, sourceUsesRawValues: Bool) throws(EventError) -> Publication {
        let isRaw: Bool
        if case .raw = self { isRaw = true } else { isRaw = false }
        guard isRaw == sourceUsesRawValues else {
            throw EventError(
                code: .incompatibleIoValue, eventType: .ioValue, field: nil,
                detail: sourceUsesRawValues
                    ? "the IO source uses raw values; publish .raw bytes"
                    : "the IO source uses JSON values; publish .json")
        }
        return Publication(topic: route, payload: payload)
    }
}
