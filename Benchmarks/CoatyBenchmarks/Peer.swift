import Foundation

/// A child process the benchmark talks to in lines: this executable in a peer role, or the C baseline.
final class ChildProcess: @unchecked Sendable {
    // @unchecked: used from one task at a time; the blocking reads run on a Dispatch queue.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let process = Process()
    private let stdinPipe = Pipe()
    private let stdoutPipe = Pipe()
    private var pending: [UInt8] = []
    let name: String

    /// Starts `executable` with `arguments`; its stderr goes to ours.
    init(executable: String, arguments: [String]) throws {
        name = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments.prefix(2)).joined(separator: " ")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        try process.run()
    }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts this executable in a peer role (`peer <role> …`).
    static func peer(_ role: String, _ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable: selfPath, arguments: ["peer", role] + arguments)
    }

    static let selfPath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    /// The next line the child wrote, without its newline; throws when the child closed its output.
    func readLine() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.readLineBlocking() })
            }
        }
    }

    private func readLineBlocking() throws -> String {
        let fd = stdoutPipe.fileHandleForReading.fileDescriptor
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "\(name) ended without answering") }
            pending += chunk[..<count]
        }
    }

    /// Reads lines until one starts with `prefix`; returns it.
    func expect(_ prefix: String) async throws -> String {
        while true {
            let line = try await readLine()
            if line.hasPrefix(prefix) { return line }
        }
    }

    /// Writes one line to the child's stdin.
    func send(_ line: String) {
        stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Waits until the child exits; returns its status.
    @discardableResult
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.process.waitUntilExit()
                continuation.resume(returning: self.process.terminationStatus)
            }
        }
    }

    func terminate() {
        if process.isRunning { process.terminate() }
    }
}

/// Parses `key=value key=value` lines.
func keyValues(_ line: String) -> [String: Double] {
    var values: [String: Double] = [:]
    for pair in line.split(separator: " ") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
    }
    return values
}

/// Parses `key=a,b,c` lines into lists of numbers.
func keyValueLists(_ line: String) -> [String: [Double]] {
    var lists: [String: [Double]] = [:]
    for pair in line.split(separator: " ") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { lists[String(parts[0])] = parts[1].split(separator: ",").compactMap { Double($0) } }
    }
    return lists
}

/// Runs the C baseline once and returns the key/value pairs of its result line.
func runBaseline(_ path: String, _ arguments: [String]) async throws -> [String: Double] {
    let child = try ChildProcess(executable: path, arguments: arguments)
    var lastLine = ""
    while let line = try? await child.readLine() { lastLine = line }
    let status = await child.wait()
    let values = keyValues(lastLine)
    guard status == 0 || status == 2, !values.isEmpty else {
        throw ChildProcess.Failure(description: "mqtt-baseline \(arguments.joined(separator: " ")) failed (\(status)): \(lastLine)")
    }
    return values
}

/// Reads one line of our own stdin without blocking a cooperative thread (peer roles use it).
func readStdinLine() async -> String? {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: Swift.readLine()) }
    }
}

/// Prints a line for the parent and flushes at once (stdout is a pipe in peer roles).
func tell(_ line: String) {
    print(line)
    fflush(nil)
}
