import Agent
import CoreTypes
import Foundation
import Testing
import TestSupport

/// Tests of the session harness itself, with scenarios written here (not captured from
/// coaty-js): their expectations come from the wire protocol, so that a harness feature the
/// visible vectors do not use yet still works when a scenario needs it.
@Suite(.timeLimit(.minutes(2)))
struct SessionHarnessTests {
    static let a = "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"
    static let b = "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"
    static let c = "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f"

    static func identityAdvertise(_ id: String, _ name: String) -> String {
        let object =
            #"{\"objectId\":\"\#(id)\",\"name\":\"\#(name)\","#
            + #"\"objectType\":\"coaty.Identity\",\"coreType\":\"Identity\"}"#
        return #"{"topic":"coaty/3/-/ADV:Identity/\#(id)","payload":"{\"object\":\#(object)}","retain":false,"qos":0}"#
    }

    /// The scenario the vectors README announces (an agent killed with SIGKILL), in the harness's
    /// terms: C dies, the broker publishes C's last will, B's Deadvertise observer receives it,
    /// and the scenario goes on without C (its barrier is no longer awaited).
    @Test func aKilledAgentLeavesItsWillAndTheScenarioGoesOn() async throws {
        let (a, b, c) = (Self.a, Self.b, Self.c)
        let light = SessionFixtures.light2
        let lightText = try JSONValue.object(light.jsonObject()).serializedString()
        let advertise = lightText.replacingOccurrences(of: "\"", with: "\\\"")
        let text = #"""
            {"name":"harness-kill","group":"session","agents":[{"id":"\#(a)","name":"Agent A"},
             {"id":"\#(b)","name":"Agent B"},{"id":"\#(c)","name":"Agent C"}],
             "expected":{"steps":[
              {"label":"setup-join","messages":[\#(Self.identityAdvertise(a, "Agent A")),
               \#(Self.identityAdvertise(b, "Agent B")),\#(Self.identityAdvertise(c, "Agent C"))]},
              {"label":"kill","messages":[{"topic":"coaty/3/-/DAD/\#(c)","payload":"{\"objectIds\":[\"\#(c)\"]}",
               "retain":false,"qos":0}]},
              {"label":"advertise","messages":[
               {"topic":"coaty/3/-/ADV:CoatyObject/\#(a)","payload":"{\"object\":\#(advertise)}","retain":false,
                "qos":0},
               {"topic":"coaty/3/-/ADV::com.example.Light/\#(a)","payload":"{\"object\":\#(advertise)}","retain":false,
                "qos":0}]}],
             "observed":[{"agent":"B","via":"observeDeadvertise","event":"Deadvertise","sourceId":"\#(c)",
              "data":{"objectIds":["\#(c)"]}}]}}
            """#
        let session = try SessionCase(json: JSONValue(parsing: text))
        let script = SessionScript(steps: [
            "kill": { run in
                run.observe("B", via: "observeDeadvertise", try await run.agent("B").observeDeadvertise())
                try run.kill("C")
            },
            "advertise": { run in
                try run.agent("A").advertise(light)
            },
        ])
        try await SessionVectorTests.replay(session, script: script)
    }
}
