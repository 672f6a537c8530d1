/// What an agent sends when it connects: client id, last will, subscriptions and the join
/// publications.
///
/// coaty-js does this on every CONNACK (the first connect and every reconnect): subscribe to
/// Associate events of each IO node's context and to Discover requests (for the built-in
/// identity and IO node responders), advertise the identity and then each IO node on its core type
/// only, and leave a last will that deadvertises all of them.
///
/// ```swift
/// let plan = try JoinPlan(identity: identity, ioNodes: ioNodes, in: scope)
/// connect(clientID: plan.clientID, will: plan.lastWill)
/// plan.subscriptions.forEach(subscribe)
/// plan.publications.forEach(publish)
/// ```
package struct JoinPlan: Sendable, Hashable {
    /// The MQTT client id: `"Coaty"` and the first 18 characters of the identity id without `-`.
    package var clientID: String
    /// The last will: the Deadvertise of the identity and IO node ids on the agent's `DAD` topic,
    /// QoS 0, not retained. A graceful stop publishes the same message before disconnecting.
    package var lastWill: Publication
    /// The subscription filters to send, in order: `ASC:<context>` per IO node, then `DSC`.
    package var subscriptions: [TopicFilter]
    /// The join publications, in order: the identity's Advertise, then one per IO node.
    package var publications: [Publication]

    /// Plans the join of an agent.
    ///
    /// - Parameters:
    ///   - identity: the agent's identity.
    ///   - ioNodes: the agent's IO nodes, one per IO context, each named after its context.
    ///   - scope: the agent's namespace; its ``AgentScope/identityID`` must be `identity.objectID`.
    /// - Throws: ``EventError`` when an object is not valid or an IO node's name cannot be a topic level.
    package init(identity: Identity, ioNodes: [IoNode] = [], in scope: AgentScope) throws(EventError) {
        let joined: [any CoatyObject] = [identity] + ioNodes
        clientID = CoatyProtocol.mqttClientID(forIdentityID: identity.objectID)
        lastWill = try Deadvertise(objectIDs: joined.map(\.objectID)).publication(in: scope)
        subscriptions = try ioNodes.map { node throws(EventError) in
            try ObservationPlan.associate(ioContextName: node.name, in: scope).topicFilter
        }
        subscriptions.append(ObservationPlan.discover(in: scope).topicFilter)
        publications = try joined.map { object throws(EventError) in
            let advertise = Advertise(object: object)
            // Identity and IO nodes are advertised on their core type only.
            return Publication(
                topic: scope.topic(.advertise, filter: object.coreType.rawValue), payload: try advertise.payload()
            )
        }
    }
}
