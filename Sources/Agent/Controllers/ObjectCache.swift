import CoreTypes

/// The entries of an ``ObjectCacheController``: objects by id with the time they were stored.
/// No I/O and no clock: callers pass the current instant.
struct ObjectCache {
    struct Entry {
        var object: any CoatyObject
        var storedAt: ContinuousClock.Instant
    }

    /// How long an entry answers after it was stored or refreshed; `nil` keeps entries until deadvertised.
    let timeToLive: Duration?
    private(set) var entries: [String: Entry] = [:]
    /// Core types whose Advertise events refresh the cache.
    private(set) var refreshedCoreTypes: Set<CoreType> = []

    init(timeToLive: Duration?) {
        self.timeToLive = timeToLive
    }

    /// The object with `id` if its entry is still fresh at `now`.
    func freshObject(_ id: String, at now: ContinuousClock.Instant) -> (any CoatyObject)? {
        guard let entry = entries[id] else { return nil }
        if let timeToLive, entry.storedAt.duration(to: now) >= timeToLive { return nil }
        return entry.object
    }

    /// Stores a resolved object. Returns its core type when Advertise events of that core type are
    /// not followed yet (the caller starts following them).
    mutating func store(_ object: any CoatyObject, at now: ContinuousClock.Instant) -> CoreType? {
        entries[object.objectID] = Entry(object: object, storedAt: now)
        return refreshedCoreTypes.insert(object.coreType).inserted ? object.coreType : nil
    }

    /// An advertised object replaces the entry with its id, if there is one; returns whether it did.
    mutating func refresh(_ object: any CoatyObject, at now: ContinuousClock.Instant) -> Bool {
        guard entries[object.objectID] != nil else { return false }
        entries[object.objectID] = Entry(object: object, storedAt: now)
        return true
    }

    /// Deadvertised ids leave the cache, and so do the objects that belong to them through
    /// `parentObjectId` (recursively: an agent's last will clears what it advertised as its own).
    /// Returns the ids that were cached.
    mutating func remove(_ ids: [String]) -> [String] {
        var removed: [String] = []
        var pending = ids
        var seen: Set<String> = []
        while let id = pending.popLast() {
            guard seen.insert(id).inserted else { continue }
            if entries.removeValue(forKey: id) != nil { removed.append(id) }
            pending += entries.filter { $0.value.object.parentObjectID == id }.map(\.key)
        }
        return removed
    }

    /// Drops the entries that are no longer fresh at `now`; returns how many.
    mutating func removeExpired(at now: ContinuousClock.Instant) -> Int {
        guard let timeToLive else { return 0 }
        let expired = entries.filter { $0.value.storedAt.duration(to: now) >= timeToLive }.map(\.key)
        for id in expired { entries[id] = nil }
        return expired.count
    }
}
