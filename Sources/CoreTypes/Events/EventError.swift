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
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: Hashable, Sendable {
            case notJSON, notAnObject, missingMember, invalidMember, conflictingMembers, invalidObject
            case invalidEventFilter, responseMismatch, invalidTopic, incompatibleIoValue, unencodableObject
        }
        private let base: Base
        /// The payload bytes are not a JSON text (coaty-js: `JSON.parse` threw, the message is dropped).
        public static let notJSON = Code(base: .notJSON)
        /// The payload is JSON but not a JSON object.
        public static let notAnObject = Code(base: .notAnObject)
        /// A required member is missing.
        public static let missingMember = Code(base: .missingMember)
        /// A member has the wrong type or value (including `null` where a value is optional).
        public static let invalidMember = Code(base: .invalidMember)
        /// Members that exclude each other are both present, or none of a required set is.
        public static let conflictingMembers = Code(base: .conflictingMembers)
        /// A Coaty object inside the event is not a valid object of its core type.
        public static let invalidObject = Code(base: .invalidObject)
        /// An object type, channel id, operation or IO context name that cannot be a topic level.
        public static let invalidEventFilter = Code(base: .invalidEventFilter)
        /// A response does not fit its request (wrong object id, core type, object type, external id).
        public static let responseMismatch = Code(base: .responseMismatch)
        /// A Raw topic or IO route that must not be published or subscribed.
        public static let invalidTopic = Code(base: .invalidTopic)
        /// An IO value whose form (JSON or raw bytes) does not match its IO point's `useRawIoValues`.
        public static let incompatibleIoValue = Code(base: .incompatibleIoValue)
        /// A Swift object whose ``CoatyObject/jsonObject()`` threw.
        public static let unencodableObject = Code(base: .unencodableObject)
        /// The code's name.
        public var description: String { "\(base)" }
    }

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
