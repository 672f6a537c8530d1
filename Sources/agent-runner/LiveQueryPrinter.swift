import Agent
import CoatyStorage
import CoatyStorageAgent
import CoreTypes
import ServiceLifecycle

extension CommandContext {
    /// Runs `query --live`: prints the result set now and each time it changes, until a signal.
    func liveQuery(_ query: Query, timeout: Duration) async throws {
        _ = try check("query") { () throws(EventError) in try query.requestPlan(in: checkScope) { "check" } }
        let agent = try agent(defaultName: "agent-runner query", reconnect: CommandContext.oneShot)
        let output = output
        try await session().run(agent) { agent in
            try await agent.liveQuery(query, timeout: timeout) { results in
                for try await result in results.cancelOnGracefulShutdown() {
                    try Self.print(result, to: output)
                }
            }
        }
    }

    /// One result: a JSON line with `objects`, `added`, `removed` and `changed`, or a readable line.
    static func print(_ result: LiveResult, to output: Output) throws {
        switch output.mode {
        case .json:
            func json(_ objects: [any CoatyObject]) throws -> JSONValue {
                .array(try objects.map { .object(try $0.jsonObject()) })
            }
            output.json([
                "objects": try json(result.objects), "added": try json(result.added),
                "removed": try json(result.removed), "changed": try json(result.changed),
            ])
        case .text:
            let names = result.objects.map(\.name).joined(separator: ", ")
            output.line(
                "\(result.objects.count) object\(result.objects.count == 1 ? "" : "s") (+\(result.added.count) "
                    + "-\(result.removed.count) ~\(result.changed.count))" + (names.isEmpty ? "" : ": \(names)"))
        }
    }
}
