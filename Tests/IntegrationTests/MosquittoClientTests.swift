import CoreTypes
import Agent
import Foundation
import Glibc
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct MosquittoClientTests {
    /// A prefix for client ids and topics, so that tests running in parallel never meet.
    let tag = "t" + UUID().uuidString.prefix(8).lowercased()

    @Test func connectReceivesAcceptedConnack() async throws {
        try await TestBroker.withBroker { broker in
            var client = try TestClient("\(tag)-a", broker: broker.url)
            try client.client.connect()
            guard case .connected(let code) = try await client.next() else {
                Issue.record("the first event was not connected")
                return
            }
            #expect(code.isAccepted)
            #expect(code.rawValue == 0)
        }
    }

    @Test func subscriberReceivesExactBinaryPayloadAfterSuback() async throws {
        try await TestBroker.withBroker { broker in
            var subscriber = try TestClient("\(tag)-sub", broker: broker.url)
            var publisher = try TestClient("\(tag)-pub", broker: broker.url)
            try await subscriber.connect()
            try await publisher.connect()
            let topic = "\(tag)/binary"
            let granted = try await subscriber.subscribe([topic, "\(tag)/other/+"])
            #expect(granted == [0, 0])

            let payload: [UInt8] = [0x00, 0xFF, 0x00, 0x7B, 0x22, 0x0A, 0x00, 0x80, 0xC3, 0x28]
            _ = try publisher.client.publish(topic: topic, payload: payload)
            let message = try await subscriber.nextMessage()
            #expect(message.topic == topic)
            #expect(message.payload == payload)
            #expect(message.qos == .atMostOnce)
            #expect(message.retain == false)

            _ = try publisher.client.publish(topic: "\(tag)/other/x", payload: [UInt8]())
            let empty = try await subscriber.nextMessage()
            #expect(empty.topic == "\(tag)/other/x")
            #expect(empty.payload.isEmpty)
        }
    }

    @Test func tenThousandQoS0MessagesArriveInOrder() async throws {
        let count = 10_000
        try await TestBroker.withBroker { broker in
            var subscriber = try TestClient("\(tag)-sub", broker: broker.url) { $0.eventBufferSize = 2 * count }
            var publisher = try TestClient("\(tag)-pub", broker: broker.url)
            try await subscriber.connect()
            try await publisher.connect()
            let topic = "\(tag)/order"
            try await subscriber.subscribe([topic])

            for index in 0..<count {
                _ = try publisher.client.publish(topic: topic, payload: Self.bytes(of: UInt32(index)))
            }
            var received: [UInt32] = []
            received.reserveCapacity(count)
            while received.count < count {
                let message = try await subscriber.nextMessage()
                received.append(message.payload.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
            }
            #expect(received == (0..<UInt32(count)).map { $0 })
        }
    }

    @Test func qos1PublishIsConfirmedWithItsMessageID() async throws {
        try await TestBroker.withBroker { broker in
            var publisher = try TestClient("\(tag)-pub", broker: broker.url)
            try await publisher.connect()
            let first = try publisher.client.publish(
                topic: "\(tag)/qos1", payload: Array("one".utf8), qos: .atLeastOnce)
            let second = try publisher.client.publish(
                topic: "\(tag)/qos1", payload: Array("two".utf8), qos: .atLeastOnce)
            #expect(first != second)
            var confirmed: Set<MQTTMessageID> = []
            while confirmed.count < 2 {
                confirmed.insert(try await publisher.next { if case .published(let id) = $0 { id } else { nil } })
            }
            #expect(confirmed == [first, second])
        }
    }

    @Test func willIsDeliveredWhenClientClosesWithoutDisconnect() async throws {
        try await TestBroker.withBroker { broker in
            let willTopic = "\(tag)/will"
            let willPayload = Array(#"{"objectIds":["5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c"]}"#.utf8)
            var watcher = try TestClient("\(tag)-watcher", broker: broker.url)
            var dying = try TestClient("\(tag)-dying", broker: broker.url) {
                $0.will = .init(topic: willTopic, payload: willPayload)
            }
            try await watcher.connect()
            try await watcher.subscribe([willTopic])
            try await dying.connect()

            dying.client.close()  // no DISCONNECT: the socket just closes

            let will = try await watcher.nextMessage()
            #expect(will.topic == willTopic)
            #expect(will.payload == willPayload)
            #expect(await dying.nextOrEnd() == nil, "close() ends the event stream")
            #expect(throws: MosquittoError.self) { try dying.client.connect() }
        }
    }

    @Test func disconnectSendsNoWillAndAllowsConnectingAgain() async throws {
        try await TestBroker.withBroker { broker in
            let willTopic = "\(tag)/will"
            var watcher = try TestClient("\(tag)-watcher", broker: broker.url)
            var leaving = try TestClient("\(tag)-leaving", broker: broker.url) {
                $0.will = .init(topic: willTopic, payload: Array("gone".utf8))
            }
            try await watcher.connect()
            try await watcher.subscribe([willTopic, "\(tag)/marker"])
            try await leaving.connect()

            try leaving.client.disconnect()
            let reason = try await leaving.next { event -> MosquittoError?? in
                if case .disconnected(let error) = event { .some(error) } else { nil }
            }
            #expect(reason == nil)

            try await leaving.connect()
            _ = try leaving.client.publish(topic: "\(tag)/marker", payload: Array("back".utf8))
            let message = try await watcher.nextMessage()
            #expect(message.topic == "\(tag)/marker", "the will arrived although the client sent DISCONNECT")
        }
    }

    @Test func brokerRestartIsReportedAndClientCanConnectAgain() async throws {
        try await TestBroker.withBroker { broker in
            var client = try TestClient("\(tag)-a", broker: broker.url)
            try await client.connect()
            try await broker.restart()
            let reason = try await client.next { event -> MosquittoError?? in
                if case .disconnected(let error) = event { .some(error) } else { nil }
            }
            let error = try #require(reason)
            #expect(error.code == .connectionLost)
            #expect(error.broker == broker.url.description)

            try await client.connect()
            try await client.subscribe(["\(tag)/again"])
        }
    }

    @Test func shuttingDownALoopClosesItsClientsAndFiresTheirWills() async throws {
        try await TestBroker.withBroker { broker in
            let loop = try MosquittoEventLoop()
            var watcher = try TestClient("\(tag)-watcher", broker: broker.url)
            var client = try TestClient("\(tag)-own-loop", broker: broker.url, eventLoop: loop) {
                $0.will = .init(topic: "\(tag)/will", payload: Array("loop gone".utf8))
            }
            try await watcher.connect()
            try await watcher.subscribe(["\(tag)/will"])
            try await client.connect()

            loop.shutdown()

            while await client.nextOrEnd() != nil {}  // the stream ends
            #expect(try await watcher.nextMessage().payload == Array("loop gone".utf8))
            let error = #expect(throws: MosquittoError.self) { try client.client.connect() }
            #expect(error?.code == .closed)
        }
    }

    @Test func connectingToClosedPortNamesTheURL() async throws {
        let (port, error) = try await TestBroker.withUnreachablePort { port -> (Int, MosquittoError) in
            let url = try BrokerURL("mqtt://127.0.0.1:\(port)")
            var client = try TestClient("\(tag)-nobody", broker: url)
            do {
                try client.client.connect()
                return (port, try #require(
                    try await client.next { event -> MosquittoError?? in
                        if case .disconnected(let error) = event { .some(error) } else { nil }
                    }))
            } catch let thrown as MosquittoError {
                return (port, thrown)
            }
        }
        #expect(error.code == .unreachable)
        #expect(error.systemErrno == ECONNREFUSED)
        #expect(error.description.contains("mqtt://127.0.0.1:\(port)"))
        #expect(error.description.contains("Connection refused"))
    }

    @Test func unresolvableHostIsUnreachable() async throws {
        let client = try TestClient("\(tag)-nowhere", broker: BrokerURL(host: "nonexistent.invalid", port: 1883))
        let error = try #require(throws: MosquittoError.self) { try client.client.connect() }
        #expect(error.code == .unreachable)
        #expect(error.description.contains("mqtt://nonexistent.invalid:1883"))
    }

    static func bytes(of value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }
}

/// The connect gate of an event loop, with real clients: a client waits for a slot, connects, and
/// gives the slot back at its CONNACK; closing a waiting client ends its wait.
@Suite(.timeLimit(.minutes(1)))
struct ConnectGateClientTests {
    let tag = "t" + UUID().uuidString.prefix(8).lowercased()

    /// Takes every slot of `loop`'s gate with ids no client has (connection ids start at 1).
    static func fill(_ loop: MosquittoEventLoop) async -> [UInt64] {
        let ids = (0..<UInt64(MosquittoEventLoop.handshakesInFlight)).map { UInt64.max - $0 }
        for id in ids { await loop.connectGate.enter(id) }
        return ids
    }

    @Test func aClientWaitsForASlotAndGivesItBackAtItsConnack() async throws {
        try await TestBroker.withBroker { broker in
            // Leases that outlast the test: the fillers' slots must not expire however slow the run.
            let loop = try MosquittoEventLoop(handshakeLease: .seconds(3600))
            defer { loop.shutdown() }
            let gate = loop.connectGate
            let fillers = await Self.fill(loop)
            var client = try TestClient("\(tag)-gated", broker: broker.url, eventLoop: loop)
            let waiting = Task { [client = client.client] in await client.waitForConnectSlot() }
            try await yieldUntil { gate.waitingCount != 0 }

            gate.leave(fillers[0])
            await waiting.value
            #expect(gate.inFlightCount == MosquittoEventLoop.handshakesInFlight)
            try await client.connect()  // waits for the accepted CONNACK
            #expect(gate.inFlightCount == MosquittoEventLoop.handshakesInFlight - 1)
        }
    }

    @Test func closingAWaitingClientEndsItsWait() async throws {
        try await TestBroker.withBroker { broker in
            let loop = try MosquittoEventLoop(handshakeLease: .seconds(3600))
            defer { loop.shutdown() }
            let gate = loop.connectGate
            _ = await Self.fill(loop)
            let client = try TestClient("\(tag)-closed", broker: broker.url, eventLoop: loop)
            let waiting = Task { [client = client.client] in await client.waitForConnectSlot() }
            try await yieldUntil { gate.waitingCount != 0 }

            client.client.close()
            await waiting.value
            #expect(gate.waitingCount == 0)
            #expect(gate.inFlightCount == MosquittoEventLoop.handshakesInFlight)
        }
    }
}
