import Foundation
import Glibc

/// A real PostgreSQL server for tests: `initdb` in a temporary folder, `pg_ctl` on a free loopback
/// port (no Unix socket), `createdb` for each store, stopped and removed by ``remove()``.
///
/// PostgreSQL refuses to run as root, so when the tests run as root the server runs as the
/// unprivileged system user `coatytest` (created with `useradd` when missing) through `runuser`,
/// and its folder belongs to that user. The binaries come from `PATH`, else from Debian's
/// `/usr/lib/postgresql/<version>/bin/` (the newest); `scripts/test.sh` installs the `postgresql`
/// package when they are missing, so a test never skips for want of a server.
///
/// ```swift
/// try await TestPostgres.withServer { server in
///     let url = try await server.createDatabase()   // postgres://coatytest@127.0.0.1:<port>/…
/// }
/// ```
package final class TestPostgres: Sendable {
    /// What went wrong while starting or using the server.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// The database role (the superuser `initdb` makes) and, when running as root, the system user.
    package static let user = "coatytest"

    /// The port the server listens on at 127.0.0.1.
    package let port: Int
    private let binaries: URL
    private let folder: URL
    private var data: URL { folder.appendingPathComponent("data") }
    private var log: URL { folder.appendingPathComponent("server.log") }

    private init(port: Int, binaries: URL, folder: URL) {
        self.port = port
        self.binaries = binaries
        self.folder = folder
    }

    /// Starts a server, runs `body` with it, and stops and removes it, also when `body` throws.
    package static func withServer<Result>(_ body: (TestPostgres) async throws -> Result) async throws -> Result {
        let server = try await start()
        do {
            let result = try await body(server)
            try await server.remove()
            return result
        } catch {
            try? await server.remove()
            throw error
        }
    }

    /// Creates a data folder and starts a server on it.
    package static func start() async throws -> TestPostgres {
        let binaries = try findBinaries()
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-postgres-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            try await TestPostgres(port: 0, binaries: binaries, folder: folder).initialize()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        var lastFailure = ""
        for _ in 0..<5 {
            let server = TestPostgres(port: try TestBroker.freeLoopbackPort(), binaries: binaries, folder: folder)
            do {
                try server.configure()
                try await server.startServer()
                return server
            } catch let failure as Failure {
                lastFailure = failure.description  // most likely the port was taken meanwhile: try another
            }
        }
        try? FileManager.default.removeItem(at: folder)
        throw Failure(description: "PostgreSQL did not start after 5 attempts; last:\n\(lastFailure)")
    }

    /// A new, empty database; returns its URL.
    package func createDatabase() async throws -> String {
        let name = "coaty_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await run(
            "createdb", ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-E", "UTF8", name], asServerUser: false)
        return url(database: name)
    }

    /// What `psql` prints for `sql` on the database at `url` (unaligned, tuples only).
    package func psql(_ sql: String, on url: String) async throws -> String {
        let database = String(url.split(separator: "/").last ?? "")
        return try await run(
            "psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", Self.user, "-At", "-c", sql, database], asServerUser: false)
    }

    /// The URL of `database` on this server.
    package func url(database: String) -> String {
        "postgres://\(Self.user)@127.0.0.1:\(port)/\(database)"
    }

    /// Stops the server (`pg_ctl stop -m fast`: connections are ended at once); the data stays.
    package func stop() async throws {
        try await run("pg_ctl", ["-D", data.path, "-m", "fast", "-w", "stop"])
    }

    /// Starts the stopped server again on the same port with the same data.
    package func startAgain() async throws {
        try await startServer()
    }

    /// Stops the server and removes its folder.
    package func remove() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        if FileManager.default.fileExists(atPath: data.appendingPathComponent("postmaster.pid").path) {
            try await stop()
        }
    }

    // MARK: - Setting up

    private func initialize() async throws {
        if geteuid() == 0 {
            try await Self.ensureServerUser()
            guard let account = getpwnam(Self.user) else {
                throw Failure(description: "no user \(Self.user) after useradd")
            }
            guard chown(folder.path, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else {
                throw Failure(description: "cannot give \(folder.path) to \(Self.user): errno \(errno)")
            }
        }
        try await run(
            "initdb", ["-D", data.path, "-U", Self.user, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
    }

    /// Listens on 127.0.0.1:``port`` only, without durability (test data need not survive a crash).
    private func configure() throws {
        let settings = """

            listen_addresses = '127.0.0.1'
            port = \(port)
            unix_socket_directories = ''
            fsync = off
            synchronous_commit = off
            full_page_writes = off

            """
        let handle = try FileHandle(forWritingTo: data.appendingPathComponent("postgresql.conf"))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(settings.utf8))
    }

    private func startServer() async throws {
        do {
            try await run("pg_ctl", ["-D", data.path, "-l", log.path, "-w", "-t", "60", "start"])
        } catch let failure as Failure {
            let serverLog = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw Failure(description: "\(failure.description)\nserver log:\n\(serverLog.suffix(4000))")
        }
    }

    /// Creates the system user that runs the server when the tests run as root.
    private static func ensureServerUser() async throws {
        guard getpwnam(user) == nil else { return }
        let useradd = try executable("useradd", in: ["/usr/sbin", "/sbin"])
        _ = try await runProcess(useradd, ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user])
    }

    // MARK: - Running the binaries

    /// Runs a PostgreSQL binary to its end; the server's own binaries run as ``user`` when this
    /// process is root.
    @discardableResult
    private func run(_ name: String, _ arguments: [String], asServerUser: Bool = true) async throws -> String {
        let program = binaries.appendingPathComponent(name).path
        if asServerUser && geteuid() == 0 {
            let runuser = try Self.executable("runuser", in: ["/usr/sbin", "/sbin", "/usr/bin", "/bin"])
            // From "/", a folder the server user may enter (the tests' folder may not be).
            return try await Self.runProcess(runuser, ["-u", Self.user, "--", "/usr/bin/env", "-C", "/", program] + arguments)
        } else {
            return try await Self.runProcess(program, arguments)
        }
    }

    private static func runProcess(_ executable: String, _ arguments: [String]) async throws -> String {
        let process: ChildProcess
        do {
            process = try ChildProcess(executable, arguments: arguments)
        } catch {
            throw Failure(description: "\(error)")
        }
        let output = await process.waitForEndOfOutput()
        let status = process.waitForExit()
        guard status == 0 else {
            let command = ([executable] + arguments).joined(separator: " ")
            throw Failure(description: "`\(command)` failed (wait status \(status)):\n\(output)")
        }
        return output
    }

    private static func executable(_ name: String, in folders: [String]) throws -> String {
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
            return "\(folder)/\(name)"
        }
        throw Failure(description: "\(name) not found in \(folders.joined(separator: ", "))")
    }

    /// The folder of `initdb`, `pg_ctl` and `createdb`: where `initdb` on `PATH` really is, else
    /// the newest `/usr/lib/postgresql/<version>/bin/`.
    private static func findBinaries() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("initdb")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate.resolvingSymlinksInPath().deletingLastPathComponent()
            }
        }
        let debian = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: debian)) ?? [])
            .compactMap { Int($0) }.sorted(by: >)
        for version in versions where FileManager.default.isExecutableFile(atPath: "\(debian)/\(version)/bin/initdb") {
            return URL(fileURLWithPath: "\(debian)/\(version)/bin")
        }
        throw Failure(
            description: "initdb is not on PATH nor in \(debian)/<version>/bin; install PostgreSQL "
                + "(`apt-get install postgresql`; scripts/test.sh does so when it is missing)")
    }
}
