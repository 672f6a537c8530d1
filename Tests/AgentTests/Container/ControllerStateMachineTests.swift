import CoreTypes
import Testing

@testable import Agent

@Suite struct ConnectionHooksTests {
    typealias Step = (ConnectionState, ConnectionHooks.Action)

    @Test(
        arguments: [
            ("first connection", [(.idle, .none), (.connecting, .none), (.online, .didGoOnline)]),
            ("never online", [(.connecting, .none), (.offline, .none), (.connecting, .none), (.stopped, .none)]),
            ("reconnect", [(.online, .didGoOnline), (.offline, .didGoOffline), (.online, .didGoOnline)]),
            (
                "repeated states",
                [(.online, .didGoOnline), (.online, .none), (.offline, .didGoOffline), (.offline, .none)]
            ),
            ("stop while online", [(.online, .didGoOnline), (.stopped, .didGoOffline), (.stopped, .none)]),
            ("missed offline state", [(.online, .didGoOnline), (.connecting, .didGoOffline), (.online, .didGoOnline)]),
        ] as [(String, [Step])])
    func onlineAndOfflineHooksAlternate(name: String, steps: [Step]) {
        var hooks = ConnectionHooks()
        for (state, expected) in steps {
            #expect(hooks.next(state) == expected, "\(name): \(state)")
        }
    }
}

@Suite struct ObjectLifecycleTrackerTests {
    func object(_ id: String, parent: String? = nil, name: String = "o") -> BaseObject {
        BaseObject(objectID: id, name: name, parentObjectID: parent)
    }

    @Test func aNewObjectIsAddedAndTheSameOneAgainIsNothing() {
        var tracker = ObjectLifecycleTracker()
        #expect(tracker.saw(object("a"))?.kind == .added)
        #expect(tracker.saw(object("a")) == nil)
        #expect(tracker.trackedObjects.map(\.objectID) == ["a"])
    }

    @Test func aReadvertisedObjectWithOtherContentChanged() throws {
        var tracker = ObjectLifecycleTracker()
        _ = tracker.saw(object("a", name: "before"))
        let seen = tracker.saw(object("a", name: "after"))
        let event = try #require(seen)
        #expect(event.kind == .changed)
        #expect(event.object.name == "after")
        #expect(tracker.trackedObjects.map(\.name) == ["after"])
    }

    @Test func memberOrderDoesNotMakeAChange() throws {
        var tracker = ObjectLifecycleTracker()
        let first = try BaseObject(jsonObject: [
            "objectId": "a", "objectType": "x.Y", "coreType": "CoatyObject", "name": "n", "v": 1,
        ])
        let reordered = try BaseObject(jsonObject: [
            "v": 1, "name": "n", "coreType": "CoatyObject", "objectType": "x.Y", "objectId": "a",
        ])
        _ = tracker.saw(first)
        #expect(tracker.saw(reordered) == nil)
    }

    @Test func deadvertisingRemovesTheObjectAndEverythingBelowIt() {
        var tracker = ObjectLifecycleTracker()
        for o in [object("agent"), object("node", parent: "agent"), object("actor", parent: "node"), object("other")] {
            _ = tracker.saw(o)
        }
        let removed = tracker.deadvertised(["agent"])
        #expect(removed.map(\.kind) == [.removed, .removed, .removed])
        #expect(Set(removed.map(\.object.objectID)) == ["agent", "node", "actor"])
        #expect(tracker.trackedObjects.map(\.objectID) == ["other"])
    }

    @Test func childrenOfAnUntrackedParentAreRemovedByItsDeadvertise() {
        // An observation of IO nodes does not track identities, yet an agent's will removes its nodes.
        var tracker = ObjectLifecycleTracker()
        _ = tracker.saw(object("node", parent: "agent"))
        #expect(tracker.deadvertised(["agent"]).map(\.object.objectID) == ["node"])
    }

    @Test func unknownIdsAndCyclesRemoveNothingTwice() {
        var tracker = ObjectLifecycleTracker()
        _ = tracker.saw(object("a", parent: "b"))
        _ = tracker.saw(object("b", parent: "a"))
        #expect(tracker.deadvertised(["zzz"]).isEmpty)
        #expect(tracker.deadvertised(["a"]).count == 2)
        #expect(tracker.trackedObjects.isEmpty)
        #expect(tracker.saw(object("a"))?.kind == .added, "a removed object that comes back is added again")
    }
}

@Suite struct ObjectCacheTests {
    let start = ContinuousClock.now

    func object(_ id: String, parent: String? = nil) -> BaseObject {
        BaseObject(objectID: id, name: id, parentObjectID: parent)
    }

    @Test func anEntryIsFreshUntilItsTimeToLivePassed() {
        var cache = ObjectCache(timeToLive: .seconds(10))
        _ = cache.store(object("a"), at: start)
        #expect(cache.freshObject("a", at: start.advanced(by: .seconds(9)))?.objectID == "a")
        #expect(cache.freshObject("a", at: start.advanced(by: .seconds(10))) == nil)
        #expect(cache.freshObject("b", at: start) == nil)
    }

    @Test func withoutATimeToLiveEntriesStayUntilRemoved() {
        var cache = ObjectCache(timeToLive: nil)
        _ = cache.store(object("a"), at: start)
        #expect(cache.freshObject("a", at: start.advanced(by: .seconds(86_400 * 365))) != nil)
        #expect(cache.removeExpired(at: start.advanced(by: .seconds(86_400))) == 0)
        #expect(cache.remove(["a"]) == ["a"])
        #expect(cache.freshObject("a", at: start) == nil)
    }

    @Test func anAdvertiseRefreshesOnlyACachedObject() {
        var cache = ObjectCache(timeToLive: .seconds(10))
        _ = cache.store(object("a"), at: start)
        let refreshed = cache.refresh(BaseObject(objectID: "a", name: "renamed"), at: start.advanced(by: .seconds(8)))
        let unknown = cache.refresh(object("b"), at: start)
        #expect(refreshed)
        #expect(!unknown)
        let later = start.advanced(by: .seconds(15))
        #expect(cache.freshObject("a", at: later)?.name == "renamed", "refreshing restarts the time to live")
        #expect(cache.entries["b"] == nil)
    }

    @Test func expiredEntriesAreDropped() {
        var cache = ObjectCache(timeToLive: .seconds(1))
        _ = cache.store(object("a"), at: start)
        _ = cache.store(object("b"), at: start.advanced(by: .seconds(5)))
        #expect(cache.removeExpired(at: start.advanced(by: .seconds(5))) == 1)
        #expect(cache.entries.keys.sorted() == ["b"])
    }

    @Test func eachCoreTypeIsFollowedOnce() {
        var cache = ObjectCache(timeToLive: nil)
        #expect(cache.store(object("a"), at: start) == .coatyObject)
        #expect(cache.store(object("b"), at: start) == nil)
        #expect(cache.store(Identity(objectID: "i"), at: start) == .identity)
        #expect(cache.refreshedCoreTypes == [.coatyObject, .identity])
    }

    @Test func deadvertisingAnAgentRemovesWhatBelongsToIt() {
        var cache = ObjectCache(timeToLive: nil)
        for o in [object("lamp", parent: "agent"), object("bulb", parent: "lamp"), object("other")] {
            _ = cache.store(o, at: start)
        }
        #expect(Set(cache.remove(["agent"])) == ["lamp", "bulb"])
        #expect(cache.entries.keys.sorted() == ["other"])
    }
}
