import CoreTypes
import Synchronization

extension Agent {
    /// What an agent's MQTT connection carries.
    package enum Role: Sendable, Equatable, CustomStringConvertible {
        /// The agent's own connection: its identity, last will and every unshared observation.
        case identity
        /// The requests of one responder group, through `$share/<group>/…` subscriptions only: no
        /// join, no last will, no identity responder. Its responses go out on this connection.
        case responderGroup(String)

        /// The MQTT filter that subscribes to `filter` in this role.
        func subscription(for filter: String) -> String {
            switch self {
            case .identity: filter
            case .responderGroup(let group): "$share/\(group)/\(filter)"
            }
        }

        package var description: String {
            switch self {
            case .identity: "identity"
            case .responderGroup(let group): group
            }
        }
    }

    /// The agent that answers requests in `group` (`nil`: the configured one, if any): this agent
    /// itself when there is none, else the group's connection, made and connected on first use.
    ///
    /// - Throws: `AgentError.Code.invalidConfiguration` for a name that cannot be a topic level,
    ///   `AgentError.Code.stopped` after the agent stopped.
    func responder(in group: String?) async throws -> Agent {
        guard role == .identity, let group = group ?? configuration.responderGroup else { return self }
        try Self.checkResponderGroup(group)
        let (link, isRunning) = try responderGroups.link(group) {
            try Agent(
                configuration: configuration, registry: registry, logger: logger, eventLoop: client.eventLoop,
                role: .responderGroup(group))
        }
        // A responder added while the agent runs waits for the first connection attempt; online,
        // its subscription is then acknowledged before it returns (else it is made on reconnect).
        if isRunning { await link.waitUntilSubscribed() }
        return link
    }

    /// Throws `AgentError.Code.invalidConfiguration` unless `group` can be one MQTT topic level.
    static func checkResponderGroup(_ group: String) throws(AgentError) {
        guard CoatyTopic.isValidEventFilter(group) else {
            throw AgentError(
                code: .invalidConfiguration,
                detail: "responder group '\(group)' must be non-empty without '/', '+', '#' or NUL")
        }
    }

    /// Returns once the first connection attempt is over and, if it succeeded, every subscription
    /// made so far is acknowledged (or refused): from then on the broker hands this connection its share.
    func waitUntilSubscribed() async {
        for await connectionState in connectionStates() where connectionState != .idle && connectionState != .connecting {
            break
        }
        let filters = state.withLock { $0.machine.subscriptions.filters }
        for filter in filters { _ = await waitForAcknowledgement(of: filter) }
    }

    /// The MQTT client id of a responder group's connection: `"CoatyG"` and 16 hex digits of a
    /// hash of the identity id and the group (23 characters at most, as MQTT 3.1.1 brokers accept).
    package static func responderGroupClientID(identityID: String, group: String) -> String {
        // FNV-1a, 64 bits: stable across processes, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identityID.utf8 + [0] + group.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "CoatyG" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
