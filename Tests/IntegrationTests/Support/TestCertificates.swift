import Foundation
import TestSupport

/// A throwaway certificate authority and a server certificate for `localhost` / `127.0.0.1`, made with
/// the `openssl` command in a temporary directory.
struct TestCertificates {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: URL
    var caFile: String { directory.appendingPathComponent("ca.pem").path }
    var serverCertificateFile: String { directory.appendingPathComponent("server.pem").path }
    var serverKeyFile: String { directory.appendingPathComponent("server.key").path }
    /// A second CA that signed nothing the broker uses.
    var otherCAFile: String { directory.appendingPathComponent("other-ca.pem").path }

    /// Whether the `openssl` command is available.
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    /// Creates the files; throws with openssl's output when a step fails.
    static func make() async throws -> TestCertificates {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-test-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        let script = """
            set -e
            openssl req -x509 \(key) -keyout ca.key -out ca.pem -days 2 -subj '/CN=Coaty Test CA'
            openssl req -x509 \(key) -keyout other-ca.key -out other-ca.pem -days 2 -subj '/CN=Other CA'
            openssl req \(key) -keyout server.key -out server.csr -subj '/CN=localhost'
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem \
                -days 2 -extfile san.ext
            chmod 644 *.pem *.key
            """
        let process = try ChildProcess("/bin/sh", arguments: ["-c", "cd '\(directory.path)' && " + script])
        let text = await process.waitForEndOfOutput()
        let status = process.waitForExit()
        guard status == 0 else {
            throw Failure(description: "openssl failed (wait status \(status)):\n\(text)")
        }
        return TestCertificates(directory: directory)
    }

    /// `mosquitto.conf` lines for a TLS listener on `port` using these files.
    func listenerConfiguration(port: Int) -> [String] {
        [
            "listener \(port) 127.0.0.1",
            "cafile \(caFile)",
            "certfile \(serverCertificateFile)",
            "keyfile \(serverKeyFile)",
        ]
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
