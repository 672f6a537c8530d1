import Foundation
import Synchronization
import TestSupport

/// Certificates for the TLS tests, generated once per test run with the `openssl` command line
/// into a temporary directory: a CA, a second CA nobody trusts, broker certificates (valid for
/// 127.0.0.1 and localhost, expired, for another host name, self-signed) and a client certificate.
///
/// Keys are P-256 (quick to generate) and the files are world-readable, because mosquitto started
/// as root reads them after dropping to its own user.
struct CertificateSet: Sendable {
    /// What went wrong while generating them.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: URL

    /// The CA that signed every certificate below except the self-signed one.
    var caFile: String { path("ca.pem") }
    /// A CA that signed nothing here.
    var otherCAFile: String { path("other-ca.pem") }
    /// The broker's certificate for IP 127.0.0.1 and DNS localhost, and its key.
    var serverCertificate: String { path("server.pem") }
    var serverKey: String { path("server.key") }
    /// The same key in a certificate that expired on 2 January 2020.
    var expiredCertificate: String { path("expired.pem") }
    /// The same key in a certificate for `other.example` only.
    var wrongHostCertificate: String { path("wrong-host.pem") }
    /// A self-signed certificate for 127.0.0.1 and localhost, and its key.
    var selfSignedCertificate: String { path("self-signed.pem") }
    var selfSignedKey: String { path("self-signed.key") }
    /// A client certificate signed by the CA, and its key.
    var clientCertificate: String { path("client.pem") }
    var clientKey: String { path("client.key") }

    private static let generation = Mutex<Task<CertificateSet, any Error>?>(nil)

    /// The certificates of this test run (generated on first use).
    static func shared() async throws -> CertificateSet {
        let task = generation.withLock { current in
            if let current { return current }
            let task = Task { try await generate() }
            current = task
            return task
        }
        return try await task.value
    }

    private func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    private static func generate() async throws -> CertificateSet {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-certificates-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        func run(_ arguments: [String]) async throws { try await openssl(arguments, in: directory) }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let serverNames = "subjectAltName=IP:127.0.0.1,DNS:localhost"
        try "\(serverNames)\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try "subjectAltName=DNS:other.example\n".write(
            to: directory.appendingPathComponent("wrong-host.ext"), atomically: true, encoding: .utf8)

        try await run(
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=Coaty Test CA",
            ])
        try await run(
            ["req", "-x509"] + key + [
                "-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "30", "-subj", "/CN=Other CA",
            ])
        try await run(["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        let sign = [
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "30",
        ]
        try await run(sign + ["-out", "server.pem", "-extfile", "server.ext"])
        try await run(sign + ["-out", "wrong-host.pem", "-extfile", "wrong-host.ext"])
        try await signExpired(in: directory)
        try await run(
            ["req", "-x509"] + key + [
                "-keyout", "self-signed.key", "-out", "self-signed.pem", "-days", "30", "-subj", "/CN=localhost",
                "-addext", serverNames,
            ])
        try await run(["req"] + key + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=coaty-agent"])
        try await run([
            "x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "30",
            "-out", "client.pem",
        ])

        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: directory.appendingPathComponent(file).path)
        }
        return CertificateSet(directory: directory)
    }

    /// `openssl x509` cannot back-date a certificate; `openssl ca` can, with a minimal CA configuration.
    private static func signExpired(in directory: URL) async throws {
        let database = directory.appendingPathComponent("ca-database", isDirectory: true)
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        try "".write(to: database.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(to: database.appendingPathComponent("serial"), atomically: true, encoding: .utf8)
        let configuration = """
            [ca]
            default_ca = test
            [test]
            database = \(database.path)/index.txt
            serial = \(database.path)/serial
            new_certs_dir = \(database.path)
            default_md = sha256
            policy = any
            unique_subject = no
            [any]
            commonName = supplied
            [server]
            subjectAltName = IP:127.0.0.1,DNS:localhost

            """
        try configuration.write(to: directory.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try await openssl(
            [
                "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "server.csr",
                "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-extensions",
                "server",
                "-notext",
            ], in: directory)
    }

    private static func openssl(_ arguments: [String], in directory: URL) async throws {
        let process = try ChildProcess("/usr/bin/env", arguments: ["-C", directory.path, "openssl"] + arguments)
        let text = await process.waitForEndOfOutput()
        let status = process.waitForExit()
        guard status == 0 else {
            throw Failure(
                description: "openssl \(arguments.joined(separator: " ")) failed (wait status \(status)): \(text)")
        }
    }
}
