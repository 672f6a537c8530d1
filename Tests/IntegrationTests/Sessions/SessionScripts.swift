import Agent
import CoreTypes

/// The Swift version of every scenario in `sessions.json`, by scenario name.
///
/// Each script does with the Swift API what the coaty-js agents of the capture did; the JS calls
/// are named by the `via` of `expected.observed` and implied by the captured messages.
enum SessionScripts {
    typealias F = SessionFixtures

    static let table: [String: SessionScript] = [
        "session-advertise-custom-type": SessionScript(steps: [
            "advertise": { run in
                let byCoreType = try await run.agent("B").observeAdvertise(coreType: .coatyObject)
                run.observe("B", via: "observeAdvertiseWithCoreType('CoatyObject')", byCoreType)
                let byObjectType = try await run.agent("B").observeAdvertise(objectType: SessionLight.objectType)
                run.observe("B", via: "observeAdvertiseWithObjectType('com.example.Light')", byObjectType)
                try run.agent("A").advertise(F.light1)
            }
        ]),
        "session-discover-objectTypes": SessionScript(steps: [
            "discover-resolve": { run in
                try await run.resolveLights(on: "B")
                try await run.discover(from: "A", Discover(objectTypes: [SessionLight.objectType]))
            }
        ]),
        "session-discover-coreTypes": SessionScript(steps: [
            "discover-resolve": { run in
                try await run.resolveLights(on: "B")
                try await run.discover(from: "A", Discover(coreTypes: [.coatyObject]))
            }
        ]),
        "session-discover-identities": SessionScript(steps: [
            "discover-resolve": { run in
                try await run.watchDiscover(on: "B")
                try await run.discover(from: "A", Discover(coreTypes: [.identity]))
            }
        ]),
        "session-discover-identity-by-id": SessionScript(steps: [
            "discover-resolve": { run in
                try await run.watchDiscover(on: "B")
                try await run.discover(from: "A", Discover(objectID: try run.agent("B").identity.objectID))
            }
        ]),
        "session-discover-no-match": SessionScript(steps: [
            "discover-resolve": { run in
                try await run.resolveLights(on: "B")
                try await run.discover(from: "A", Discover(objectID: "00000000-0000-4000-8000-00000000beef"))
            }
        ]),
        "session-query-empty-result": SessionScript(steps: [
            "query-retrieve": { run in
                let queries = try await run.agent("B").observeQuery()
                run.observe("B", via: "observeQuery", queries) { request in
                    let candidates = F.lights.filter { request.event.coreTypes?.contains($0.coreType) ?? true }
                    let selected = try request.event.filter.apply(to: candidates) { try .object($0.jsonObject()) }
                    try request.respond(Retrieve(objects: selected))
                }
                let query = Query(coreTypes: [.coatyObject], filter: .where("name", .like("Lamp%")))
                let retrieves = try await run.agent("A").query(query, timeout: F.openRequest)
                run.observe("A", via: "publishQuery", retrieves)
            }
        ]),
        "session-update-complete": SessionScript(steps: [
            "update-complete": { run in
                let updates = try await run.agent("B").observeUpdate(objectType: SessionLight.objectType)
                run.observe("B", via: "observeUpdateWithObjectType('com.example.Light')", updates) { request in
                    try request.respond(Complete(object: request.event.object, privateData: ["completedBy": "B"]))
                }
                var light = F.light1
                light.isOn = true
                let completes = try await run.agent("A").update(Update(object: light), timeout: F.openRequest)
                run.observe("A", via: "publishUpdate", completes)
            }
        ]),
        "session-update-complete-both-observers": SessionScript(
            unorderedPublishers: [
                "B": """
                B answers from two observers, and each observer is its own AsyncSequence read by its own \
                task: the order of their Completes is up to the scheduler (coaty-js runs both handlers \
                synchronously in arrival order). Each Complete is still checked byte for byte, and each \
                stream's own order is kept.
                """
            ],
            steps: [
                "update-complete": { run in
                    let byObjectType = try await run.agent("B").observeUpdate(objectType: SessionLight.objectType)
                    run.observe("B", via: "observeUpdateWithObjectType('com.example.Light')", byObjectType) { request in
                        try request.respond(Complete(object: request.event.object, privateData: ["via": "objectType"]))
                    }
                    let byCoreType = try await run.agent("B").observeUpdate(coreType: .coatyObject)
                    run.observe("B", via: "observeUpdateWithCoreType('CoatyObject')", byCoreType) { request in
                        try request.respond(Complete(object: request.event.object, privateData: ["via": "coreType"]))
                    }
                    let completes = try await run.agent("A").update(Update(object: F.light2), timeout: F.openRequest)
                    run.observe("A", via: "publishUpdate", completes)
                }
            ]),
        "session-call-result": SessionScript(steps: [
            "call-return": { run in
                let calls = try await run.agent("B").observeCall("switchLight")
                run.observe("B", via: "observeCall('switchLight')", calls) { request in
                    let isOn = request.event.parameter(named: "state") == "on"
                    try request.respond(
                        Return(
                            result: ["lightId": .string(F.light1.objectID), "isOn": .bool(isOn)],
                            executionInfo: ["duration": 1]))
                }
                try await run.call(from: "A", Call(operation: "switchLight", parameters: .named(["state": "on"])))
            }
        ]),
        "session-call-null-result": SessionScript(steps: [
            "call-return": { run in
                let calls = try await run.agent("B").observeCall("reset")
                run.observe("B", via: "observeCall('reset')", calls) { request in
                    try request.respond(Return(result: .null))
                }
                try await run.call(from: "A", Call(operation: "reset", parameters: .positional([1, "all"])))
            }
        ]),
        "session-call-error": SessionScript(steps: [
            "call-return": { run in
                let calls = try await run.agent("B").observeCall("switchLight")
                run.observe("B", via: "observeCall('switchLight')", calls) { request in
                    guard let state = request.event.parameter(named: "state"), state == "on" || state == "off" else {
                        try request.respond(
                            Return(error: .invalidParameters, executionInfo: ["lightId": .string(F.light1.objectID)]))
                        return
                    }
                    try request.respond(Return(result: true))
                }
                try await run.call(from: "A", Call(operation: "switchLight", parameters: .named(["state": "dim"])))
            }
        ]),
        "session-call-context-match": contextCall(filterFloor: 2),
        "session-call-context-nomatch": contextCall(filterFloor: 3),
        "session-call-context-without-filter": contextCall(filterFloor: nil),
        "session-call-filter-without-context": SessionScript(steps: [
            "call-return": { run in
                let calls = try await run.agent("B").observeCall("switchLight")
                run.observe("B", via: "observeCall('switchLight')", calls) { request in
                    try request.respond(Return(result: "done"))
                }
                try await run.call(from: "A", Call(operation: "switchLight", filter: .where("floor", .equals(99))))
            }
        ]),
        "session-channel": SessionScript(steps: [
            "channel": { run in
                run.observe("B", via: "observeChannel('lights')", try await run.agent("B").observeChannel("lights"))
                try run.agent("A").publish(
                    Channel(id: "lights", objects: [F.light1, F.light2], privateData: ["batch": 1]))
            }
        ]),
        "session-deadvertise": SessionScript(steps: [
            "deadvertise": { run in
                run.observe("B", via: "observeDeadvertise", try await run.agent("B").observeDeadvertise())
                try run.agent("A").deadvertise([F.light1.objectID, F.light3.objectID])
            }
        ]),
        "session-cross-namespace": SessionScript(steps: [
            "advertise": { run in
                for label in ["B", "D"] {
                    let events = try await run.agent(label).observeAdvertise(coreType: .coatyObject)
                    run.observe(label, via: "observeAdvertiseWithCoreType('CoatyObject')", events)
                }
                try run.agent("A").advertise(F.light1)
            },
            "discover-identities-from-B": { run in
                try await run.discover(from: "B", Discover(coreTypes: [.identity]))
            },
        ]),
    ]

    /// B observes `switchLight` with the room on floor 2 as its context and returns `true`; A calls
    /// it with `{"state":"off"}` and a filter `floor == filterFloor` (or no filter).
    static func contextCall(filterFloor: Int?) -> SessionScript {
        SessionScript(steps: [
            "call-return": { run in
                let calls = try await run.agent("B").observeCall("switchLight", context: F.roomOnFloor2)
                run.observe("B", via: "observeCall('switchLight', context)", calls) { request in
                    try request.respond(Return(result: true))
                }
                let filter = filterFloor.map { ContextFilter.where("floor", .equals(.int($0))) }
                try await run.call(
                    from: "A", Call(operation: "switchLight", parameters: .named(["state": "off"]), filter: filter))
            }
        ])
    }
}
