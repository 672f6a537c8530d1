import Foundation
package import Glibc
import Synchronization

/// A child process started with ``Spawn/process(_:arguments:environment:stdout:stderr:)``, its
/// standard output and error collected on a thread.
package final class ChildProcess: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private struct Output {
        var text = ""
        var isFinished = false
        var waiters: [(marker: String?, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    package let pid: pid_t
    private let output = Mutex(Output())
    private let exitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments`; stdin is `/dev/null`, stdout and stderr are collected.
    package init(_ executable: String, arguments: [String]) throws {
        let (readFD, writeFD) = try Spawn.pipe()
        defer { close(writeFD) }

        let pid: pid_t
        do {
            pid = try Spawn.process(executable, arguments: arguments, stdout: writeFD, stderr: writeFD)
        } catch {
            close(readFD)
            throw Failure(description: "\(error)")
        }
        self.pid = pid
        startReading(readFD)
    }

    /// Everything the process wrote so far (the last 64 KiB).
    package var text: String { output.withLock { $0.text } }

    /// Waits until the output contains `marker` (`true`) or ends without it (`false`).
    package func waitForOutput(containing marker: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = output.withLock { output in
                if output.text.contains(marker) { return true }
                if output.isFinished { return false }
                output.waiters.append((marker, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Waits until the process closes its output, and returns all of it.
    package func waitForEndOfOutput() async -> String {
        _ = await withCheckedContinuation { continuation in
            let isFinished = output.withLock { output in
                if !output.isFinished { output.waiters.append((nil, continuation)) }
                return output.isFinished
            }
            if isFinished { continuation.resume(returning: true) }
        }
        return text
    }

    /// Sends `signal`; does nothing once the process has been reaped.
    package func send(_ signal: Int32) {
        exitStatus.withLock { status in
            if status == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Waits for the process to exit and returns its wait status (blocks the calling thread).
    @discardableResult
    package func waitForExit() -> Int32 {
        exitStatus.withLock { status in
            if let status { return status }
            var value: Int32 = 0
            while waitpid(pid, &value, 0) == -1 && errno == EINTR {}
            status = value
            return value
        }
    }

    /// Kills the process with SIGKILL and reaps it.
    package func kill() {
        send(SIGKILL)
        waitForExit()
    }

    private func startReading(_ readFD: Int32) {
        let thread = Thread { [self] in
            while let chunk = Spawn.readChunk(readFD) { append(String(decoding: chunk, as: UTF8.self)) }
            close(readFD)
            finish()
        }
        thread.start()
    }

    private func append(_ chunk: String) {
        let ready = output.withLock { output in
            output.text += chunk
            if output.text.utf8.count > 65_536 { output.text = String(output.text.suffix(32_768)) }
            let text = output.text
            let (ready, waiting) = output.waiters.partitioned { waiter in
                waiter.marker.map { text.contains($0) } ?? false
            }
            output.waiters = waiting
            return ready
        }
        ready.forEach { $0.continuation.resume(returning: true) }
    }

    private func finish() {
        let waiters = output.withLock { output in
            output.isFinished = true
            defer { output.waiters = [] }
            return output.waiters
        }
        waiters.forEach { $0.continuation.resume(returning: $0.marker == nil) }
    }
}

/// Starts child processes with `posix_spawn`.
///
/// Foundation's `Process` is not used in the tests: on Linux it lists `/proc/self/fd` to close
/// every inherited descriptor, which crashed (in `Process.run()`) while the 1,100-client test opened
/// and closed sockets in parallel, and its children inherit the blocked signals of the worker thread
/// that starts them (mosquitto then ignores SIGTERM). Here the child gets an empty signal mask,
/// default handling of the signals tests send, and a `closefrom(3)` file action.
package enum Spawn {
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Glibc's Swift module hides
    /// behind `_GNU_SOURCE`; looked up at run time.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// A pipe whose ends are closed in children started later (``process(_:arguments:environment:stdout:stderr:)``
    /// duplicates the write end it is given): another child must not hold a write end open.
    package static func pipe() throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        guard Glibc.pipe(&descriptors) == 0 else {
            throw ChildProcess.Failure(description: "pipe failed: errno \(errno)")
        }
        _ = fcntl(descriptors[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptors[1], F_SETFD, FD_CLOEXEC)
        return (descriptors[0], descriptors[1])
    }

    /// The next bytes from `descriptor`, or `nil` at its end or on an error. A read that a signal
    /// interrupts is retried (`FileHandle.availableData` traps instead; the tests of signal
    /// handling deliver signals to the test process too).
    package static func readChunk(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return Array(buffer[..<count])
        }
    }

    /// Starts `executable` with `arguments`, stdin from `/dev/null`, stdout and stderr on the given
    /// descriptors, and this process's environment (or `environment` instead); returns its pid.
    package static func process(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, stdin: Int32? = nil,
        stdout: Int32, stderr: Int32
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // The child must not inherit other tests' sockets: a broker holding a copy of a client's socket
        // would keep that connection open after the client closes it (and hold back its will).
        _ = addCloseFrom?(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaultSignals = sigset_t()
        sigemptyset(&defaultSignals)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaultSignals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result: Int32
        if let environment {
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        } else {
            result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        }
        guard result == 0 else {
            throw ChildProcess.Failure(description: "cannot start \(executable): " + String(cString: strerror(result)))
        }
        return pid
    }
}

extension Array {
    /// Splits into the elements that match and those that don't, keeping order.
    fileprivate func partitioned(_ matches: (Element) -> Bool) -> ([Element], [Element]) {
        var yes: [Element] = []
        var no: [Element] = []
        for element in self {
            if matches(element) { yes.append(element) } else { no.append(element) }
        }
        return (yes, no)
    }
}
