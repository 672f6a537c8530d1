package import CoreTypes

/// The objects one lifecycle observation tracks, and the events each Advertise, Resolve and
/// Deadvertise causes. No I/O: the controller feeds it and publishes what it returns (and
/// agent-runner's dashboard keeps the agents online with it).
package struct ObjectLifecycleTracker: Sendable {
    private var objects: [String: any CoatyObject] = [:]
    private var order: [String] = []

    package init() {}

    /// The tracked objects, oldest first.
    package var trackedObjects: [any CoatyObject] { order.compactMap { objects[$0] } }

    /// An advertised or discovered object: `added` when new, `changed` when its content differs,
    /// nothing when it is the same.
    package mutating func saw(_ object: any CoatyObject) -> ObjectLifecycleEvent? {
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
    package mutating func deadvertised(_ ids: [String]) -> [ObjectLifecycleEvent] {
        let gone = Self.cascade(ids, known: order) { objects[$0]?.parentObjectID }
        var events: [ObjectLifecycleEvent] = []
        for id in order where gone.contains(id) {
            if let object = objects.removeValue(forKey: id) { events.append(.removed(object)) }
        }
        order.removeAll { objects[$0] == nil }
        return events
    }

    /// The ids of `known` that a Deadvertise of `ids` removes: those that are one of `ids`, and
    /// those whose `parent` is a removed or deadvertised id, recursively.
    package static func cascade(_ ids: [String], known: [String], parent: (String) -> String?) -> Set<String> {
        let knownIDs = Set(known)
        var gone: Set<String> = []
        var pending = ids
        var seen: Set<String> = []
        while let id = pending.popLast() {
            guard seen.insert(id).inserted else { continue }
            if knownIDs.contains(id) { gone.insert(id) }
            pending += known.filter { parent($0) == id && !seen.contains($0) }
        }
        return gone
    }

    /// Whether two objects are deeply equal on the wire (member order does not count).
    static func hasSameContent(_ lhs: any CoatyObject, _ rhs: any CoatyObject) -> Bool {
        guard let left = try? lhs.jsonObject(), let right = try? rhs.jsonObject() else { return false }
        return left == right
    }
}
