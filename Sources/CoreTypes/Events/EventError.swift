/// Why an event payload was rejected, or why an event cannot be published.
///
/// Decoding an inbound payload, validating a response against its request, and planning a
/// publication all report problems with this one error value, never with a crash. It names the
/// event type and, where one member is to blame, the member (`"privateData"`, `"objects[2]"`).
///
/// ```swift
/// do {
///     _ = try Deadvertise(json: ["objectIds": [""]])
/// } catch {
///     error.code       // .invalidMember
///     error.eventType  // .deadvertise
///     error.field      // "objectIds[0]"
/// }
/// ```
public struct EventError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem; compare with the static members.
    ///
    /// ```swift
    /// if error.code == .responseMismatch { dropResponse() }
    /// ```
    public typealias Code = ErrorCode<EventError>

    /// The kind of problem.
    public let code: Code
    /// The event concerned, or `nil` for Raw messages (which have no Coaty event type).
    public let eventType: EventType?
    /// The member at fault as a path (`"object"`, `"objects[1]"`, `"error.code"`), when one is to blame.
    public let field: String?
    /// What is wrong and what to do about it.
    public let detail: String

    /// Creates an error.
    public init(code: Code, eventType: EventType?, field: String?, detail: String) {
        self.code = code
        self.eventType = eventType
        self.field = field
        self.detail = detail
    }

    /// One line: the event, the member, the code and the detail.
    public var description: String {
        var text = eventType.map { "\($0) event" } ?? "Raw message"
        if let field { text += ", member '\(field)'" }
        return text + ": \(code): \(detail)"
    }
}
