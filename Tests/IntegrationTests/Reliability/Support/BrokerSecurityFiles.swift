import Foundation
import TestSupport

/// Password, ACL and dynamic-security files for one test broker, in a temporary directory that
/// is removed by ``remove()``.
///
/// The password file is written by `mosquitto_passwd` (it comes with the mosquitto package), so
/// the hashes are what the broker expects. Files are world-readable because mosquitto started as
/// root reads them after dropping to its own user.
struct BrokerSecurityFiles {
    /// What went wrong while writing them.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-security-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Writes a mosquitto password file with these users; returns its path.
    func passwordFile(_ users: [(name: String, password: String)]) async throws -> String {
        let file = directory.appendingPathComponent("passwords").path
        for (index, user) in users.enumerated() {
            let create = index == 0 ? ["-c"] : []
            try await Self.run("mosquitto_passwd", ["-b"] + create + [file, user.name, user.password])
        }
        try Self.makeReadable(file)
        return file
    }

    /// Writes a mosquitto ACL file; returns its path.
    func aclFile(_ text: String) throws -> String {
        try write(text, to: "acl")
    }

    /// Writes a configuration for mosquitto's dynamic security plugin in which every anonymous
    /// client has a role made of `acls` (dictionaries in the plugin's JSON form); returns its path.
    func dynamicSecurityFile(anonymousACLs acls: [String]) throws -> String {
        let json = """
            {
              "defaultACLAccess": {"publishClientSend": true, "publishClientReceive": true, "subscribe": true, "unsubscribe": true},
              "clients": [],
              "groups": [{"groupname": "anonymous", "roles": [{"rolename": "restricted"}], "clients": []}],
              "roles": [{"rolename": "restricted", "acls": [\(acls.joined(separator: ", "))]}],
              "anonymousGroup": "anonymous"
            }

            """
        return try write(json, to: "dynamic-security.json")
    }

    /// The mosquitto.conf lines that load the dynamic security plugin with `file`.
    static func dynamicSecurityConfiguration(_ file: String) throws -> [String] {
        let candidates = [
            "/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so",
            "/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so",
            "/usr/lib/mosquitto_dynamic_security.so", "/usr/local/lib/mosquitto_dynamic_security.so",
        ]
        guard let plugin = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw Failure(description: "mosquitto's dynamic security plugin is not installed (looked in \(candidates))")
        }
        return ["plugin \(plugin)", "plugin_opt_config_file \(file)"]
    }

    /// Removes the directory.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func write(_ text: String, to name: String) throws -> String {
        let file = directory.appendingPathComponent(name).path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try Self.makeReadable(file)
        return file
    }

    private static func makeReadable(_ file: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
    }

    private static func run(_ tool: String, _ arguments: [String]) async throws {
        let process = try ChildProcess("/usr/bin/env", arguments: [tool] + arguments)
        let text = await process.waitForEndOfOutput()
        let status = process.waitForExit()
        guard status == 0 else {
            throw Failure(
                description: "\(tool) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
    }
}
