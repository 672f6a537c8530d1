import Foundation
import TestSupport

/// Debian's `chromium`, headless, for the dashboard test: loads a page, runs its script (the
/// WebSocket included) for a while of virtual time, and prints the DOM or takes a screenshot.
enum Chromium {
    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "chromium is not installed: the dashboard test reads its page in a headless Chromium; "
                + "run scripts/test.sh, which installs Debian's chromium, or apt-get install chromium"
        }
    }

    /// The rendered DOM of `url` after `budget` milliseconds of the page's (virtual) time.
    static func dumpDOM(_ url: String, budget: Int = 3000) async throws -> String {
        try await run(["--dump-dom", "--virtual-time-budget=\(budget)", url])
    }

    /// Saves a screenshot of `url` as it looks after `budget` milliseconds to `path` (PNG).
    static func screenshot(_ url: String, to path: String, width: Int = 1280, height: Int = 900, budget: Int = 3000)
        async throws
    {
        _ = try await run([
            "--screenshot=\(path)", "--window-size=\(width),\(height)", "--hide-scrollbars",
            "--virtual-time-budget=\(budget)", url,
        ])
    }

    /// Runs chromium with `arguments` and returns what it printed on stdout (its log on stderr
    /// is dropped: D-Bus complaints in a container).
    private static func run(_ arguments: [String]) async throws -> String {
        let executable = try self.executable()
        // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
        let command = ([executable, "--headless", "--no-sandbox", "--disable-gpu"] + arguments)
            .map { "'" + $0.replacing("'", with: #"'\''"#) + "'" }.joined(separator: " ")
        let process = try ChildProcess("/bin/sh", arguments: ["-c", "exec \(command) 2>/dev/null"])
        let output = await process.waitForEndOfOutput()
        process.waitForExit()
        return output
    }

    private static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(directory)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing()
    }
}
