import Agent
import Foundation
import Testing
import TestSupport

/// TLS and authorisation against a broker started with its own configuration.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(
        if: ProcessInfo.processInfo.environment["COATY_TEST_BROKER"] == nil,
        "needs a broker configured by the test, and COATY_TEST_BROKER names an external one"))
struct MosquittoSecurityTests {
    let tag = "t" + UUID().uuidString.prefix(8).lowercased()

    @Test func anonymousClientIsNotAuthorised() async throws {
        try await TestBroker.withBroker(extraConfiguration: ["allow_anonymous false"]) { broker in
            var client = try TestClient("\(tag)-anonymous", broker: broker.url)
            try client.client.connect()
            guard case .connected(let code) = try await client.next() else {
                Issue.record("expected the CONNACK first")
                return
            }
            #expect(!code.isAccepted)
            #expect(code.rawValue == 5)
            guard case .disconnected(let reason) = try await client.next() else {
                Issue.record("expected the disconnect after the refusal")
                return
            }
            let error = try #require(reason)
            #expect(error.code == .notAuthorized)
            #expect(error.connackCode == 5)
            #expect(error.description.contains(broker.url.description))
            #expect(error.description.contains("not authorised"))
        }
    }

    @Test(.enabled(if: TestCertificates.isAvailable, "the openssl command is not installed"))
    func tlsConnectionVerifiesBrokerAndCarriesMessages() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await TestBroker.withBroker(extraListeners: 1) { certificates.listenerConfiguration(port: $0[0]) } _: {
            _, ports in
            let tlsPort = ports[0]
            let url = try BrokerURL("mqtts://127.0.0.1:\(tlsPort)")
            var subscriber = try TestClient("\(tag)-tls-sub", broker: url) { $0.tls.caFile = certificates.caFile }
            var publisher = try TestClient("\(tag)-tls-pub", broker: url) { $0.tls.caFile = certificates.caFile }
            try await subscriber.connect()
            try await publisher.connect()
            try await subscriber.subscribe(["\(tag)/secure"])
            let payload = [UInt8](repeating: 0xA5, count: 100_000) + [0x00]
            _ = try publisher.client.publish(topic: "\(tag)/secure", payload: payload)
            let message = try await subscriber.nextMessage()
            #expect(message.payload == payload)
        }
    }

    @Test(.enabled(if: TestCertificates.isAvailable, "the openssl command is not installed"))
    func tlsWithUntrustedBrokerCertificateIsATLSFailure() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await TestBroker.withBroker(extraListeners: 1) { certificates.listenerConfiguration(port: $0[0]) } _: {
            _, ports in
            let tlsPort = ports[0]
            let url = try BrokerURL("mqtts://127.0.0.1:\(tlsPort)")
            var client = try TestClient("\(tag)-tls-untrusted", broker: url) {
                $0.tls.caFile = certificates.otherCAFile
            }
            let error: MosquittoError
            do {
                try client.client.connect()
                error = try #require(
                    try await client.next { event -> MosquittoError?? in
                        if case .disconnected(let error) = event { .some(error) } else { nil }
                    })
            } catch let thrown as MosquittoError {
                error = thrown
            }
            #expect(error.code == .tlsFailure, "\(error)")
            #expect(error.description.contains(url.description))
        }
    }

    @Test(.enabled(if: TestCertificates.isAvailable, "the openssl command is not installed"))
    func skippingCertificateVerificationIsExplicit() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        try await TestBroker.withBroker(extraListeners: 1) { certificates.listenerConfiguration(port: $0[0]) } _: {
            _, ports in
            let tlsPort = ports[0]
            let url = try BrokerURL("mqtts://127.0.0.1:\(tlsPort)")
            var client = try TestClient("\(tag)-tls-insecure", broker: url) {
                $0.tls.caFile = certificates.otherCAFile
                $0.tls.skipsCertificateVerification = true
            }
            try await client.connect()
        }
    }
}
