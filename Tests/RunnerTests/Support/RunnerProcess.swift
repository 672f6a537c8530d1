import CoreTypes
import Foundation
import Glibc
import Synchronization
import TestSupport

/// The built `agent-runner` binary as a child process, with its output read line by line.
///
/// The binary is found next to the test bundle (SwiftPM builds it there, the tests depend on
/// its target), or where `COATY_AGENT_RUNNER` says. The child gets this process's environment
/// without any `COATY_` variable, plus the ones a test gives.
final class RunnerProcess: Sendable {
    /// How a finished process ended.
    struct Outcome: Sendable, CustomStringConvertible {
        /// The exit code, or the signal number when it was killed.
        let status: Int32
        /// Whether it was killed by a signal.
        let wasSignalled: Bool
        /// Every line it wrote on stdout.
        let stdout: [String]
        /// Everything it wrote on stderr.
        let stderr: String

        var exitCode: Int32? { wasSignalled ? nil : status }

        /// stderr without empty lines.
        var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

        var description: String {
            "\(wasSignalled ? "signal" : "exit") \(status); stdout: \(stdout); stderr: \(stderr)"
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The process id.
    let pid: pid_t
    /// The stdout lines, as they arrive; finishes at EOF.
    let lines: AsyncStream<String>
    private let stdoutLines = Mutex<[String]>([])
    private let stderrText = Mutex("")
    /// The wait status once the process has been reaped, and who waits for it.
    private struct Reaping {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let reaping = Mutex(Reaping())
    private let stdoutDone: AsyncStream<Void>
    private let stderrDone: AsyncStream<Void>
    private let exited: AsyncStream<Void>
    /// Signals each chunk written on stderr (for ``waitForStderr(containing:)``).
    private let stderrChunks: AsyncStream<Void>
    private let stderrChunk: AsyncStream<Void>.Continuation

    private init(
        pid: pid_t, lines: AsyncStream<String>, stdoutDone: AsyncStream<Void>, stderrDone: AsyncStream<Void>,
        exited: AsyncStream<Void>
    ) {
        self.pid = pid
        (stderrChunks, stderrChunk) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.lines = lines
        self.stdoutDone = stdoutDone
        self.stderrDone = stderrDone
        self.exited = exited
    }

    /// What it wrote on stderr so far.
    var stderr: String { stderrText.withLock { $0 } }

    /// Starts `agent-runner` with `arguments` and extra environment variables.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil
    ) throws -> RunnerProcess {
        var merged = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("COATY_") }
        merged["PATH"] = (merged["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin"
        merged.merge(environment) { _, new in new }
        let (stdoutRead, stdoutWrite) = try Spawn.pipe()
        let (stderrRead, stderrWrite) = try Spawn.pipe()
        let pid: pid_t
        do {
            defer {
                close(stdoutWrite)
                close(stderrWrite)
            }
            pid = try Spawn.process(
                try executable().path, arguments: arguments, environment: merged, stdin: stdin, stdout: stdoutWrite,
                stderr: stderrWrite)
        } catch {
            close(stdoutRead)
            close(stderrRead)
            throw error
        }
        let (lines, lineInput) = AsyncStream.makeStream(of: String.self)
        let (stdoutDone, stdoutFinished) = AsyncStream.makeStream(of: Void.self)
        let (stderrDone, stderrFinished) = AsyncStream.makeStream(of: Void.self)
        let (exited, exit) = AsyncStream.makeStream(of: Void.self)
        let runner = RunnerProcess(
            pid: pid, lines: lines, stdoutDone: stdoutDone, stderrDone: stderrDone, exited: exited)
        Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let waiters = runner.reaping.withLock { reaping in
                reaping.status = status
                defer { reaping.waiters = [] }
                return reaping.waiters
            }
            waiters.forEach { $0.resume(returning: status) }
            exit.finish()
        }.start()
        Thread {
            var pending = ""
            while let chunk = Spawn.readChunk(stdoutRead) {
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    runner.stdoutLines.withLock { $0.append(line) }
                    lineInput.yield(line)
                }
            }
            if !pending.isEmpty {
                runner.stdoutLines.withLock { $0.append(pending) }
                lineInput.yield(pending)
            }
            close(stdoutRead)
            lineInput.finish()
            stdoutFinished.finish()
        }.start()
        Thread {
            while let chunk = Spawn.readChunk(stderrRead) {
                runner.stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                runner.stderrChunk.yield()
            }
            runner.stderrChunk.finish()
            close(stderrRead)
            stderrFinished.finish()
        }.start()
        return runner
    }

    /// Runs `agent-runner` to the end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Outcome {
        try await start(arguments, environment: environment).outcome()
    }

    /// Sends a signal; does nothing once the process has been reaped.
    func send(_ signal: Int32) {
        reaping.withLock { reaping in
            if reaping.status == nil { _ = kill(pid, signal) }
        }
    }

    /// The wait status, once the reaping thread has it (even when the waiting task is cancelled).
    private func waitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status = reaping.withLock { reaping in
                if reaping.status == nil { reaping.waiters.append(continuation) }
                return reaping.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Waits until the process exited and its output is read.
    func outcome() async -> Outcome {
        for await _ in exited {}
        // When the waiting task was cancelled (a time limit), the child may still run: do not leave it behind.
        send(SIGKILL)
        let status = await waitStatus()
        for await _ in stderrDone {}  // stderr read to EOF
        for await _ in stdoutDone {}  // stdout read to EOF
        let signal = status & 0x7f
        return Outcome(
            status: signal != 0 ? signal : (status >> 8) & 0xff, wasSignalled: signal != 0,
            stdout: stdoutLines.withLock { $0 }, stderr: stderr)
    }

    /// Kills the process if it still runs (for cleanup after a failed expectation).
    func kill9() {
        send(SIGKILL)
    }

    /// Waits until stderr contains `marker`; `false` when stderr ended without it. One waiter at a time.
    func waitForStderr(containing marker: String) async -> Bool {
        if stderr.contains(marker) { return true }
        for await _ in stderrChunks where stderr.contains(marker) { return true }
        return stderr.contains(marker)
    }

    /// The next stdout line, or `nil` at EOF.
    func nextLine() async -> String? {
        for await line in lines { return line }
        return nil
    }

    /// The `agent-runner` executable.
    static func executable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["COATY_AGENT_RUNNER"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = me.deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("agent-runner")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw Failure(
            description: "agent-runner is not built next to \(me.path); run `swift build --build-tests` "
                + "or set COATY_AGENT_RUNNER to its path")
    }
}

extension JSONValue {
    /// A member by dotted path: `json["data.object.name", path: ()]` is `json["data"]?["object"]?["name"]`.
    func at(_ path: String) -> JSONValue? {
        var current: JSONValue? = self
        for key in path.split(separator: ".") { current = current?[String(key)] }
        return current
    }
}

extension RunnerProcess.Outcome {
    /// The stdout lines parsed as JSON.
    func json() throws -> [JSONValue] {
        try stdout.map { try JSONValue(parsing: $0) }
    }
}
