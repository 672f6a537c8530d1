/// The twelve core types of Coaty 2.
///
/// Every Coaty object names one of these in its `coreType` field. A receiver validates an object
/// against the shape of its core type; an unknown core type makes the object invalid. The raw
/// value is the name on the wire (`"Task"`), and ``canonicalObjectType`` is the object type the
/// framework uses for plain objects of that core type (`"coaty.Task"`).
public enum CoreType: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// A plain object (``BaseObject``, or an application type of this core type).
    case coatyObject = "CoatyObject"
    /// A user (``User``).
    case user = "User"
    /// An annotation of another object (``Annotation``).
    case annotation = "Annotation"
    /// A task (``TaskObject``).
    case task = "Task"
    /// An IO context (``IoContext``).
    case ioContext = "IoContext"
    /// An IO node of an agent in an IO context (``IoNode``).
    case ioNode = "IoNode"
    /// A source of IO values (``IoSource``).
    case ioSource = "IoSource"
    /// A consumer of IO values (``IoActor``).
    case ioActor = "IoActor"
    /// An agent's identity (``Identity``).
    case identity = "Identity"
    /// A log entry (``Log``).
    case log = "Log"
    /// A location (``Location``).
    case location = "Location"
    /// A snapshot of another object (``Snapshot``).
    case snapshot = "Snapshot"

    /// The object type of plain objects of this core type, `"coaty."` followed by the core type name.
    public var canonicalObjectType: String { "coaty." + rawValue }

    /// The core type whose canonical object type is `objectType`, or `nil` for any other object type.
    ///
    /// ```swift
    /// CoreType(canonicalObjectType: "coaty.Task")        // .task
    /// CoreType(canonicalObjectType: "com.example.Light") // nil
    /// ```
    public init?(canonicalObjectType objectType: String) {
        guard objectType.hasPrefix("coaty.") else { return nil }
        self.init(rawValue: String(objectType.dropFirst(6)))
    }

    public var description: String { rawValue }
}
