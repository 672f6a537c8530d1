/// The twelve core types of Coaty 2.
///
/// Every Coaty object names one of these in its `coreType` field. A receiver validates an object
/// against the shape of its core type; an unknown core type makes the object invalid. The raw
/// value is the name on the wire (`"Task"`), and ``canonicalObjectType`` is the object type the
/// framework uses for plain objects of that core type (`"coaty.Task"`).
public enum CoreType: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case coatyObject = "CoatyObject"
    case user = "User"
    case annotation = "Annotation"
    case task = "Task"
    case ioContext = "IoContext"
    case ioNode = "IoNode"
    case ioSource = "IoSource"
    case ioActor = "IoActor"
    case identity = "Identity"
    case log = "Log"
    case location = "Location"
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
