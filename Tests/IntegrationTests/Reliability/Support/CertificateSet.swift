import Foundation

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

    private static let generated = Result { try CertificateSet.generate() }

    /// The certificates of this test run (generated on first use).
    static func shared() throws -> CertificateSet {
        try generated.get()
    }

    private func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    private static func generate() throws -> CertificateSet {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-certificates-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let run = { (arguments: [String]) in try openssl(arguments, in: directory) }
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let serverNames = "subjectAltName=IP:127.0.0.1,DNS:localhost"
        try "\(serverNames)\n".write(
            to: directory.appendingPathComponent("server.ext"), atomically: true, encoding: .utf8)
        try "subjectAltName=DNS:other.example\n".write(
            to: directory.appendingPathComponent("wrong-host.ext"), atomically: true, encoding: .utf8)

        try run(
            ["req", "-x509"] + key + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=Coaty Test CA",
            ])
        try run(
            ["req", "-x509"] + key + [
                "-keyout", "other-ca.key", "-out", "other-ca.pem", "-days", "30", "-subj", "/CN=Other CA",
            ])
        try run(["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        let sign = [
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-days", "30",
        ]
        try run(sign + ["-out", "server.pem", "-extfile", "server.ext"])
        try run(sign + ["-out", "wrong-host.pem", "-extfile", "wrong-host.ext"])
        try signExpired(in: directory, run: run)
        try run(
            ["req", "-x509"] + key + [
                "-keyout", "self-signed.key", "-out", "self-signed.pem", "-days", "30", "-subj", "/CN=localhost",
                "-addext", serverNames,
            ])
        try run(["req"] + key + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=coaty-agent"])
        try run([
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
    private static func signExpired(in directory: URL, run: ([String]) throws -> Void) throws {
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
        try run([
            "ca", "-batch", "-config", "ca.cnf", "-cert", "ca.pem", "-keyfile", "ca.key", "-in", "server.csr",
            "-out", "expired.pem", "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-extensions",
            "server",
            "-notext",
        ])
    }

    private static func openssl(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description:
                    "openssl \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
    }
}
