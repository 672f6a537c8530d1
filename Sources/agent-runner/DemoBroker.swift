import Foundation
import Glibc

/// A private mosquitto broker for `demo`: a child process on a free loopback port with a
/// generated configuration in a temporary directory, stopped and removed by ``stop()``.
final class DemoBroker: Sendable {
    /// The broker URL, `mqtt://127.0.0.1:<port>`.
    let url: String
    /// The port it listens on.
    let port: Int
    private let process: Process
    private let directory: URL

    private init(port: Int, process: Process, directory: URL) {
        self.url = "mqtt://127.0.0.1:\(port)"
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// Starts mosquitto and returns once it accepts connections.
    ///
    /// - Throws: ``RunnerError`` saying that mosquitto is not installed (and how to install it),
    ///   or why it did not start, with its output.
    static func start() throws -> DemoBroker {
        let executable = try mosquittoExecutable()
        var lastOutput = ""
        for _ in 0..<5 {
            let port = try freeLoopbackPort()
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("coaty-demo-broker-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let log = directory.appendingPathComponent("mosquitto.log")
            let lines = [
                "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false", "set_tcp_nodelay true",
                "log_dest file \(log.path)", "log_type error", "log_type warning",
            ]
            let configuration = directory.appendingPathComponent("mosquitto.conf")
            // A fresh directory of our own: nothing can race the write, so it need not be atomic.
            try (lines.joined(separator: "\n") + "\n").write(to: configuration, atomically: false, encoding: .utf8)
            let process = Process()
            process.executableURL = executable
            process.arguments = ["-c", configuration.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                throw RunnerError(code: .failure, message: "cannot start \(executable.path): \(error)")
            }
            let broker = DemoBroker(port: port, process: process, directory: directory)
            if broker.waitUntilAccepting() { return broker }
            lastOutput = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            broker.stop()  // most likely the port was taken meanwhile: try another
        }
        throw RunnerError(code: .failure, message: "mosquitto did not start; its last output: \(lastOutput)")
    }

    /// Stops the broker (SIGTERM, then SIGKILL after a second) and removes its directory.
    func stop() {
        if process.isRunning {
            _ = kill(process.processIdentifier, SIGTERM)
            let deadline = ContinuousClock.now + .seconds(1)
            while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            if process.isRunning { _ = kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Polls the port for up to 5 s; `false` if the process exited or never accepted.
    private func waitUntilAccepting() -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            guard process.isRunning else { return false }
            if Self.acceptsConnections(port: port) { return true }
            usleep(20_000)
        }
        return false
    }

    /// The mosquitto executable, from PATH or the sbin directories Debian and Homebrew use.
    static func mosquittoExecutable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories =
            path.split(separator: ":").map(String.init) + [
                "/usr/sbin", "/usr/local/sbin", "/sbin", "/opt/homebrew/sbin",
            ]
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("mosquitto")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw RunnerError(
            code: .failure,
            message: "mosquitto is not installed (looked in PATH and /usr/sbin): install it with "
                + "`sudo apt-get install mosquitto` (or `bash scripts/setup.sh`), or give a running broker with --broker URL"
        )
    }

    /// A port the kernel says is free on 127.0.0.1.
    private static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw RunnerError(code: .failure, message: "socket() failed: errno \(errno)") }
        defer { close(socket) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            throw RunnerError(code: .failure, message: "cannot find a free loopback port: errno \(errno)")
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func acceptsConnections(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
