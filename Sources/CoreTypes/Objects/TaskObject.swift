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
    var wireOrder: WireKeyOrder

    /// Creates a Task object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = TaskObject.objectType, name: String,
        status: TaskStatus, creatorID: String, creationTimestamp: Double, lastModificationTimestamp: Double? = nil,
        dueTimestamp: Double? = nil, doneTimestamp: Double? = nil, duration: Double? = nil,
        requirements: JSONObject? = nil, description: String? = nil, assigneeObjectID: String? = nil,
        externalID: String? = nil, parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil,
        custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.status = status
        self.creatorID = creatorID
        self.creationTimestamp = creationTimestamp
        self.lastModificationTimestamp = lastModificationTimestamp
        self.dueTimestamp = dueTimestamp
        self.doneTimestamp = doneTimestamp
        self.duration = duration
        self.requirements = requirements
        self.description = description
        self.assigneeObjectID = assigneeObjectID
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Task`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Task")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension TaskObject: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var status: TaskStatus?
        var creatorID: String?
        var creationTimestamp: Double?
        var lastModificationTimestamp: Double?
        var dueTimestamp: Double?
        var doneTimestamp: Double?
        var duration: Double?
        var requirements: JSONObject?
        var description: String?
        var assigneeObjectID: String?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "status": status = try Wire.enumeration(member, key, context, TaskStatus.self)
            case "creatorId": creatorID = try Wire.nonEmptyString(member, key, context)
            case "creationTimestamp": creationTimestamp = try Wire.number(member, key, context)
            case "lastModificationTimestamp" where member.isNumber: lastModificationTimestamp = member.doubleValue
            case "dueTimestamp" where member.isNumber: dueTimestamp = member.doubleValue
            case "doneTimestamp" where member.isNumber: doneTimestamp = member.doubleValue
            case "duration": duration = try Wire.number(member, key, context)
            case "requirements": requirements = try Wire.object(member, key, context)
            case "description": description = try Wire.string(member, key, context)
            case "assigneeObjectId": assigneeObjectID = try Wire.nonEmptyString(member, key, context)
            case "startTimestamp":
                _ = try Wire.number(member, key, context)
                custom.appendNew(key, member)
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .task, context)
        guard let status else { throw context.missing("status") }
        guard let creatorID else { throw context.missing("creatorId") }
        guard let creationTimestamp else { throw context.missing("creationTimestamp") }
        self.base = fields
        self.status = status
        self.creatorID = creatorID
        self.creationTimestamp = creationTimestamp
        self.lastModificationTimestamp = lastModificationTimestamp
        self.dueTimestamp = dueTimestamp
        self.doneTimestamp = doneTimestamp
        self.duration = duration
        self.requirements = requirements
        self.description = description
        self.assigneeObjectID = assigneeObjectID
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 18)
        head.appendNew("status", .int(status.rawValue))
        head.appendNew("creatorId", .string(creatorID))
        head.appendNew("creationTimestamp", .double(creationTimestamp))
        if let lastModificationTimestamp {
            head.appendNew("lastModificationTimestamp", .double(lastModificationTimestamp))
        }
        if let dueTimestamp { head.appendNew("dueTimestamp", .double(dueTimestamp)) }
        if let doneTimestamp { head.appendNew("doneTimestamp", .double(doneTimestamp)) }
        if let duration { head.appendNew("duration", .double(duration)) }
        if let requirements { head.appendNew("requirements", .object(requirements)) }
        if let description { head.appendNew("description", .string(description)) }
        if let assigneeObjectID { head.appendNew("assigneeObjectId", .string(assigneeObjectID)) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

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
