import CoreTypes

/// The objects one lifecycle observation tracks, and the events each Advertise, Resolve and
/// Deadvertise causes. No I/O: the controller feeds it and publishes what it returns.
struct ObjectLifecycleTracker {
    private var objects: [String: any CoatyObject] = [:]
    private var order: [String] = []

    /// The tracked objects, oldest first.
    var trackedObjects: [any CoatyObject] { order.compactMap { objects[$0] } }

    /// An advertised or discovered object: `added` when new, `changed` when its content differs,
    /// nothing when it is the same.
    mutating func saw(_ object: any CoatyObject) -> ObjectLifecycleEvent? {
        let id = object.objectID
        guard let known = objects[id] else {
            objects[id] = object
            order.append(id)
            return .added(object)
        }
        objects[id] = object
        return Self.hasSameContent(known, object) ? nil : .changed(object)
    }

    /// Deadvertised ids: every tracked object with one of them, and every tracked object whose
    /// `parentObjectId` is a removed or deadvertised id, recursively, as `removed`.
    mutating func deadvertised(_ ids: [String]) -> [ObjectLifecycleEvent] {
        var gone: [String] = []
        var pending = ids
        var seen: Set<String> = []
        while let id = pending.popLast() {
            guard seen.insert(id).inserted else { continue }
            if objects[id] != nil { gone.append(id) }
            pending += order.filter { objects[$0]?.parentObjectID == id && !seen.contains($0) }
        }
        var events: [ObjectLifecycleEvent] = []
        for id in order where gone.contains(id) {
            if let object = objects.removeValue(forKey: id) { events.append(.removed(object)) }
        }
        order.removeAll { objects[$0] == nil }
        return events
    }

    /// Whether two objects are deeply equal on the wire (member order does not count).
    static func hasSameContent(_ lhs: any CoatyObject, _ rhs: any CoatyObject) -> Bool {
        guard let left = try? lhs.jsonObject(), let right = try? rhs.jsonObject() else { return false }
        return left == right
    }
}
