/// A task to be done; core type `Task` (named `TaskObject` so as not to shadow Swift's `Task`).
///
/// coaty-js does not check the types of ``lastModificationTimestamp``, ``dueTimestamp`` and
/// ``doneTimestamp``; when one of them is not a number it is kept, as it arrived, in ``custom``
/// (and the property is `nil`). coaty-js also accepts an undocumented numeric `startTimestamp`;
/// it is checked to be a number and kept in ``custom``.
public struct TaskObject: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Task`.
    public static let coreType = CoreType.task

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// The task's state.
    public var status: TaskStatus
    /// The id of the object (usually a user) that created the task.
    public var creatorID: String
    /// When the task was created, in milliseconds since the Unix epoch.
    public var creationTimestamp: Double
    /// When the task last changed, in milliseconds since the Unix epoch.
    public var lastModificationTimestamp: Double?
    /// When the task is due, in milliseconds since the Unix epoch.
    public var dueTimestamp: Double?
    /// When the task was done, in milliseconds since the Unix epoch.
    public var doneTimestamp: Double?
    /// How long the task takes, in milliseconds.
    public var duration: Double?
    /// What the task needs, as application-defined members.
    public var requirements: JSONObject?
    /// A description of the task.
    public var description: String?
    /// The id of the object (usually a user) the task is assigned to.
    public var assigneeObjectID: String?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none
}

extension TaskObject {
    /// Creates a Task object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = TaskObject.objectType, name: String,
        status: TaskStatus, creatorID: String, creationTimestamp: Double, lastModificationTimestamp: Double? = nil,
        dueTimestamp: Double? = nil, doneTimestamp: Double? = nil, duration: Double? = nil,
        requirements: JSONObject? = nil, description: String? = nil, assigneeObjectID: String? = nil,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            status: status, creatorID: creatorID, creationTimestamp: creationTimestamp,
            lastModificationTimestamp: lastModificationTimestamp, dueTimestamp: dueTimestamp,
            doneTimestamp: doneTimestamp, duration: duration, requirements: requirements, description: description,
            assigneeObjectID: assigneeObjectID, custom: custom, wireOrder: .none)
    }
}

extension TaskObject: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<TaskObject>([
        .required("status", \.status),
        .required("creatorId", \.creatorID, Wire.nonEmptyString),
        .required("creationTimestamp", \.creationTimestamp),
        .uncheckedNumber("lastModificationTimestamp", \.lastModificationTimestamp),
        .uncheckedNumber("dueTimestamp", \.dueTimestamp),
        .uncheckedNumber("doneTimestamp", \.doneTimestamp),
        .optional("duration", \.duration),
        .optional("requirements", \.requirements),
        .optional("description", \.description),
        .optional("assigneeObjectId", \.assigneeObjectID, Wire.nonEmptyString),
        .checkedCustom("startTimestamp", Wire.number),
    ])
    static let wireTemplate = TaskObject(name: "", status: .pending, creatorID: "", creationTimestamp: 0)
}

extension TaskStatus: WireEnumeration {}

/// The state of a ``TaskObject``; an integer on the wire.
public enum TaskStatus: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Not started yet.
    case pending = 0
    /// Being worked on.
    case inProgress = 1
    /// Finished.
    case done = 2
    /// Blocked.
    case blocked = 3
    /// Cancelled.
    case cancelled = 4
    /// Requested, waiting to be accepted.
    case request = 5
    /// The request was withdrawn.
    case requestCancelled = 6
}
