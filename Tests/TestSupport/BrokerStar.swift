import Foundation

/// Three mosquitto brokers in a star for one test: a hub and two leaves, each leaf bridged to the
/// hub by one bridge configured on the leaf (`topic coaty/# both 0`), so a message crosses
/// leaf → hub → leaf. Stopped when the test's closure returns.
///
/// Each broker is a ``TestBroker`` (free loopback port, generated configuration in a temporary
/// folder, `max_queued_messages 0`). The hub has no bridge: a bridge configured on both sides of an
/// edge would send every message around the loop forever.
///
/// ```swift
/// try await BrokerStar.withStar { star in
///     let a = try Agent(configuration: RunningAgents.configuration("A", broker: star.leafA))
///     let b = try Agent(configuration: RunningAgents.configuration("B", broker: star.leafB))
/// }
/// ```
package struct BrokerStar: Sendable {
    /// The broker both leaves bridge to.
    package let hub: TestBroker
    /// The first leaf, bridged to ``hub``.
    package let leafA: TestBroker
    /// The second leaf, bridged to ``hub``.
    package let leafB: TestBroker

    /// Starts the hub, then both leaves, waits until both bridges carry messages, runs `body` and
    /// stops all three brokers, also when `body` throws.
    package static func withStar<Result>(_ body: (BrokerStar) async throws -> Result) async throws -> Result {
        let hub = try await TestBroker.start()
        defer { hub.stop() }
        let leafA = try await TestBroker.start(extraConfiguration: bridgeConfiguration(leaf: "a", hubPort: hub.port))
        defer { leafA.stop() }
        let leafB = try await TestBroker.start(extraConfiguration: bridgeConfiguration(leaf: "b", hubPort: hub.port))
        defer { leafB.stop() }
        let star = BrokerStar(hub: hub, leafA: leafA, leafB: leafB)
        try await star.waitUntilBridged([leafA, leafB])
        return try await body(star)
    }

    /// Starts a leaf that was stopped (``TestBroker/stop()``) on its port again, with its bridge,
    /// and returns once the bridge carries messages from the hub to it again.
    package func startOnSamePort(_ leaf: TestBroker) async throws {
        try await leaf.startOnSamePort()
        try await waitUntilBridged([leaf])
    }

    /// Returns once a message published on the hub reaches every one of `leaves`.
    ///
    /// The probe is retained on the hub, so a bridge that subscribes after it was published still
    /// gets it; no retry and no sleep. Arriving, it shows that the bridge is connected and that its
    /// subscription on the hub is in place (its leaf → hub direction needs only the connection).
    /// The probe is cleared again afterwards.
    package func waitUntilBridged(_ leaves: [TestBroker]) async throws {
        let topic = "coaty/bridge-probe/\(UUID().uuidString)"
        var listeners: [BridgeProbe] = []
        defer { for listener in listeners { listener.close() } }
        for leaf in leaves {
            var listener = try await BridgeProbe.connect(to: leaf)
            try await listener.subscribe(to: topic)
            listeners.append(listener)
        }
        var publisher = try await BridgeProbe.connect(to: hub)
        defer { publisher.close() }
        try publisher.publishRetained(Array("probe".utf8), on: topic)
        for index in listeners.indices {
            try await listeners[index].waitForMessage(on: topic)
        }
        // An empty retained message removes the probe from the hub (and, through the bridges, from the leaves).
        try publisher.publishRetained([], on: topic)
        try await publisher.disconnect()
    }

    /// The `mosquitto.conf` lines of a leaf's bridge to the hub on `hubPort`.
    ///
    /// `restart_timeout 1 1` makes the bridge retry every second when the hub is away, instead of
    /// mosquitto's backoff from 5 to 30 s (a single `restart_timeout 1` leaves that backoff on in
    /// 2.0.11: the first retry still came after 5 s). A remote client id of its own per bridge keeps
    /// one leaf's bridge from taking over the other's session on the hub.
    package static func bridgeConfiguration(leaf: String, hubPort: Int) -> [String] {
        [
            "connection coaty-hub-\(leaf)",
            "address 127.0.0.1:\(hubPort)",
            "topic coaty/# both 0",
            "cleansession true",
            "remote_clientid coaty-bridge-\(leaf)-\(UUID().uuidString.prefix(8).lowercased())",
            "restart_timeout 1 1",
        ]
    }
}
