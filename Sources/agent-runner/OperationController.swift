import Agent
import CoreTypes
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Answers the Calls of a `run` configuration's `operations`: with a fixed result, or with what a
/// command prints.
///
/// A command runs as `/bin/sh -c COMMAND` with the Call's parameters as JSON on stdin (`null`
/// without parameters); its stdout, parsed as JSON, is the result (empty output: `null`). A
/// command that exits non-zero, or prints something that is not JSON, is answered with an error
/// Return (code 1, its stderr or the reason as message). Commands run one at a time per operation,
/// off the agent's network thread.
final class OperationController: Controller {
    /// One operation and how it is answered.
    struct Operation: Sendable {
        enum Answer: Sendable {
            case result(JSONValue)
            case command(String)
        }

        let name: String
        let answer: Answer
    }

    let agent: Agent
    let operations: [Operation]
    let logger: Logger
    private let calls = Mutex<[EventStream<IncomingRequest<Call>>]>([])

    init(agent: Agent, operations: [Operation], logger: Logger) {
        self.agent = agent
        self.operations = operations
        self.logger = logger
    }

    /// Subscribes to every operation before the agent connects.
    func initialize() async throws {
        var streams: [EventStream<IncomingRequest<Call>>] = []
        for operation in operations { streams.append(try await agent.observeCall(operation.name)) }
        calls.withLock { $0 = streams }
    }

    /// Answers until the agent stops or the container shuts down.
    func run() async throws {
        let streams = calls.withLock { $0 }
        await withDiscardingTaskGroup { group in
            for (operation, calls) in zip(operations, streams) {
                group.addTask {
                    do {
                        for try await request in calls.cancelOnGracefulShutdown() {
                            try? request.respond(await self.answer(operation, request.event.parameters))
                        }
                    } catch {}
                }
            }
        }
    }

    private func answer(_ operation: Operation, _ parameters: Call.Parameters?) async -> Return {
        switch operation.answer {
        case .result(let result):
            return Return(result: result)
        case .command(let command):
            let input: JSONValue =
                switch parameters {
                case .positional(let values): .array(values)
                case .named(let members): .object(members)
                case nil: .null
                }
            do {
                let (status, output, errors) = try await Self.run(command, input: Array(input.serializedString().utf8))
                guard status == 0 else {
                    let message = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    return Return(errorCode: 1, message: message.isEmpty ? "'\(command)' exited with \(status)" : message)
                }
                let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return Return(result: text.isEmpty ? .null : try JSONValue(parsing: Array(text.utf8)))
            } catch {
                logger.warning("Operation failed", metadata: ["coaty.operation": "\(operation.name)", "error": "\(error)"])
                return Return(errorCode: 1, message: "'\(operation.name)' failed: \(error)")
            }
        }
    }

    /// Runs `/bin/sh -c command` with `input` on stdin; its exit status, stdout and stderr.
    ///
    /// The input comes from a temporary file, not a pipe: a command that does not read it cannot
    /// make the runner write to a closed pipe (SIGPIPE). The output pipes are read on threads of
    /// their own while it runs, so a large output cannot block it.
    private static func run(_ command: String, input: [UInt8]) async throws -> (Int32, Data, Data) {
        let inputFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("agent-runner-call-\(ObjectID.make()).json")
        try Data(input).write(to: inputFile)
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let (stdout, stderr) = (Pipe(), Pipe())
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let errors = Mutex(Data())
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) {
                    let data = stderr.fileHandleForReading.readDataToEndOfFile()
                    errors.withLock { $0 = data }
                }
                let output = stdout.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, output, errors.withLock { $0 }))
            }
        }
    }
}
