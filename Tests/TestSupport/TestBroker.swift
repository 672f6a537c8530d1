package import Agent
import Foundation
import Glibc
import Synchronization

/// A mosquitto broker for one test: a child process on a free loopback port with a generated
/// configuration, stopped when the test's closure returns.
///
/// When `COATY_TEST_BROKER` is set to `host:port`, that broker is used instead and nothing is started
/// (then ``restart()`` and extra configuration lines are not available). Shared by the integration
/// and runner tests (the `TestSupport` target).
///
/// ```swift
/// try await TestBroker.withBroker { broker in
///     let client = try MosquittoClient(configuration: .init(clientID: "a", broker: broker.url))
/// }
/// ```
package final class TestBroker: Sendable {
    /// What went wrong while starting or using the broker.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    private struct Running {
        var process: ChildProcess?
        var directory: URL?
    }

    /// The host clients connect to.
    package let host: String
    /// The port clients connect to.
    package let port: Int
    private let extraConfiguration: [String]
    private let isExternal: Bool
    private let running = Mutex(Running())

    /// The broker's address as a ``BrokerURL`` (`mqtt://127.0.0.1:<port>`).
    package var url: BrokerURL { BrokerURL(host: host, port: port) }

    /// A socket bound to ``port`` (not listening) from ``reserve(extraConfiguration:)`` until the
    /// broker starts: while the broker is not there, connects are refused, and no other test's
    /// broker can be given the port (an agent retrying it would join that broker instead).
    private let reservation: Mutex<Int32?>

    private init(host: String, port: Int, extraConfiguration: [String], isExternal: Bool, reservation: Int32? = nil) {
        self.host = host
        self.port = port
        self.extraConfiguration = extraConfiguration
        self.isExternal = isExternal
        self.reservation = Mutex(reservation)
    }

    /// Starts a broker, runs `body` with it and stops the broker, also when `body` throws.
    ///
    /// - Parameter extraConfiguration: More `mosquitto.conf` lines (TLS listeners, ACLs, limits).
    package static func withBroker<Result>(
        extraConfiguration: [String] = [],
        _ body: (TestBroker) async throws -> Result
    ) async throws -> Result {
        let broker = try await start(extraConfiguration: extraConfiguration)
        defer { broker.stop() }
        return try await body(broker)
    }

    /// Starts a broker with `count` more listeners on free loopback ports, runs `body` with it and
    /// the ports, and stops the broker, also when `body` throws.
    ///
    /// Every attempt to start picks the ports afresh, so a port that another test's broker took
    /// meanwhile costs one attempt, not the test.
    ///
    /// - Parameter listeners: The `mosquitto.conf` lines for the extra listeners on these ports.
    package static func withBroker<Result>(
        extraListeners count: Int,
        configuration listeners: ([Int]) -> [String],
        _ body: (TestBroker, [Int]) async throws -> Result
    ) async throws -> Result {
        var lastFailure = ""
        for _ in 0..<5 {
            let ports = try (0..<count).map { _ in try freeLoopbackPort() }
            let broker: TestBroker
            do {
                broker = try await start(extraConfiguration: listeners(ports), attempts: 1)
            } catch let failure as Failure {
                lastFailure = failure.description
                continue
            }
            defer { broker.stop() }
            return try await body(broker, ports)
        }
        throw Failure(description: "\(lastFailure)\n(after 5 choices of the extra listeners' ports)")
    }

    /// Starts a broker on a free loopback port (or uses `COATY_TEST_BROKER`).
    package static func start(extraConfiguration: [String] = []) async throws -> TestBroker {
        try await start(extraConfiguration: extraConfiguration, attempts: 5)
    }

    private static func start(extraConfiguration: [String], attempts: Int) async throws -> TestBroker {
        if let external = ProcessInfo.processInfo.environment["COATY_TEST_BROKER"], !external.isEmpty {
            guard extraConfiguration.isEmpty else {
                throw Failure(
                    description: "COATY_TEST_BROKER is set, so these config lines cannot apply: \(extraConfiguration)")
            }
            guard let colon = external.lastIndex(of: ":"), let port = Int(external[external.index(after: colon)...])
            else {
                throw Failure(description: "COATY_TEST_BROKER must be host:port, not '\(external)'")
            }
            return TestBroker(host: String(external[..<colon]), port: port, extraConfiguration: [], isExternal: true)
        }
        var lastFailure = ""
        for _ in 0..<attempts {
            let broker = TestBroker(
                host: "127.0.0.1", port: try freeLoopbackPort(), extraConfiguration: extraConfiguration,
                isExternal: false)
            switch try await broker.launch() {
            case .running: return broker
            case .exited(let log): lastFailure = log  // most likely the port was taken meanwhile: try another
            }
        }
        throw Failure(
            description: "mosquitto did not start after \(attempts) attempt(s); its last output:\n\(lastFailure)")
    }

    /// Stops the broker process and starts it again on the same port, with the same configuration.
    /// Connected clients see their connection drop.
    package func restart() async throws {
        stop()
        try await startOnSamePort()
    }

    /// A broker on a free loopback port that is not running yet: connections are refused until
    /// ``startOnSamePort()``. Stop it with ``stop()`` (also when the test fails).
    package static func reserve(extraConfiguration: [String] = []) throws -> TestBroker {
        let (socket, port) = try boundLoopbackSocket()
        return TestBroker(
            host: "127.0.0.1", port: port, extraConfiguration: extraConfiguration, isExternal: false, reservation: socket)
    }

    /// Starts the broker process on its port, with its configuration: after ``reserve(extraConfiguration:)``,
    /// or after ``stop()`` to bring a killed broker back.
    package func startOnSamePort() async throws {
        guard !isExternal else { throw Failure(description: "cannot restart the broker named by COATY_TEST_BROKER") }
        var lastFailure = ""
        for _ in 0..<20 {
            switch try await launch() {
            case .running: return
            case .exited(let log): lastFailure = log
            }
        }
        throw Failure(description: "mosquitto did not start on port \(port); its last output:\n\(lastFailure)")
    }

    /// Kills the broker process (SIGKILL, so clients see their connections drop at once), waits for
    /// it and removes its temporary directory.
    package func stop() {
        let stopped = running.withLock { running in
            defer { running = Running() }
            return (running.process, running.directory)
        }
        stopped.0?.kill()
        reservation.withLock { socket in
            if let reserved = socket { close(reserved) }
            socket = nil
        }
        if let directory = stopped.1 {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Waits until the broker's output contains `marker`; `false` when it ended without it, or the
    /// broker is not one this process started (COATY_TEST_BROKER).
    package func waitForOutput(containing marker: String) async -> Bool {
        guard let process = running.withLock({ $0.process }) else { return false }
        return await process.waitForOutput(containing: marker)
    }

    /// The broker's output so far (errors, warnings, notices and information), at most the last 64 KiB.
    package var output: String {
        running.withLock { $0.process?.text ?? "" }
    }

    // MARK: - Starting the process

    private enum LaunchOutcome {
        case running
        case exited(String)
    }

    private func launch() async throws -> LaunchOutcome {
        let executable = try Self.mosquittoExecutable()
        // The broker takes the port over now.
        reservation.withLock { socket in
            if let reserved = socket { close(reserved) }
            socket = nil
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-broker-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let configuration = directory.appendingPathComponent("mosquitto.conf")
        let lines =
            [
                "listener \(port) 127.0.0.1",
                "allow_anonymous true",
                "max_queued_messages 0",
                "persistence false",
                "log_dest stderr",
                "log_type error",
                "log_type warning",
                "log_type notice",
                "log_type information",
            ] + extraConfiguration
        try (lines.joined(separator: "\n") + "\n").write(to: configuration, atomically: true, encoding: .utf8)

        let process = try ChildProcess(executable.path, arguments: ["-c", configuration.path])
        let isRunning = await process.waitForOutput(containing: " running")
        guard isRunning, Self.acceptsConnections(port: port) else {
            process.kill()
            try? FileManager.default.removeItem(at: directory)
            return .exited(process.text)
        }
        running.withLock { $0 = Running(process: process, directory: directory) }
        return .running
    }

    private static func mosquittoExecutable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for directory in directories {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("mosquitto")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw Failure(
            description: "mosquitto is not installed (looked in PATH and /usr/sbin). Install it with "
                + "`apt-get install mosquitto`, or set COATY_TEST_BROKER=host:port to use a running broker")
    }

    /// Runs `body` with a loopback port where connections are refused for as long as it runs: the
    /// port stays bound (without listening), so no broker that another test starts meanwhile can
    /// take it, as it could take a port from ``freeLoopbackPort()``.
    package static func withUnreachablePort<Value>(_ body: (Int) async throws -> Value) async throws -> Value {
        let (socket, port) = try boundLoopbackSocket()
        defer { close(socket) }
        return try await body(port)
    }

    /// Binds port 0 on 127.0.0.1 to let the kernel pick a free port, and closes the socket again.
    package static func freeLoopbackPort() throws -> Int {
        let (socket, port) = try boundLoopbackSocket()
        close(socket)
        return port
    }

    /// A TCP socket bound to a free loopback port, and the port.
    private static func boundLoopbackSocket() throws -> (socket: Int32, port: Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var failed = true
        defer { if failed { close(socket) } }
        _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw Failure(description: "bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname() failed: errno \(errno)") }
        failed = false
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` succeeds right now.
    package static func acceptsConnections(port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}
