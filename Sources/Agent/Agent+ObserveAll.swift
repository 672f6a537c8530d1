import CoreTypes

extension Agent {
    /// Observes every Coaty message in the agent's namespace (in every namespace when the agent
    /// is cross-namespacing): one-way events, requests, responses to anyone and IO values on
    /// Coaty routes, undecoded and in arrival order, including the agent's own.
    ///
    /// This is the view of a monitoring tool; it subscribes to `coaty/3/<namespace>/#`. The
    /// agent's typed observers and requests work as before beside it. With MQTT 5 (or a broker
    /// configured to allow duplicate messages), a message that also matches another subscription
    /// of this agent may be delivered to this observer once per matching subscription.
    ///
    /// ```swift
    /// for try await message in try await agent.observeAllEvents() {
    ///     logger.trace("\(message.topic.eventType)", metadata: ["from": "\(message.sourceID)"])
    /// }
    /// ```
    ///
    /// - Throws: `AgentError.Code.stopped` after the agent stopped.
    package func observeAllEvents() async throws -> EventStream<CoatyMessage> {
        let namespaceLevel = configuration.isCrossNamespacing ? "+" : configuration.namespace
        let filter = "coaty/\(CoatyProtocol.topicVersion)/\(namespaceLevel)/#"
        return try await observe(
            filter, register: { router, sink in router.addTap(sink) },
            unregister: { router, id in router.removeTap(id) }
        ) { event in
            guard case .message(let message) = event else { return nil }
            return message
        }
    }
}
