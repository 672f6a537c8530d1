public import CoreMetrics
public import CoreTypes
import Glibc

extension Agent {
    /// Everything an agent needs to join a Coaty network. Every setting has a sensible default.
    ///
    /// ```swift
    /// var configuration = Agent.Configuration(identity: Identity(name: "Lamp controller"))
    /// configuration.broker.url = "mqtt://broker.local:1883"
    /// configuration.namespace = "building-7"
    /// ```
    public struct Configuration: Sendable {
        /// The agent's identity, advertised on every connect and deadvertised on stop (and by the
        /// last will when the agent dies). Its object id also gives the MQTT client id.
        public var identity: Identity
        /// The broker to connect to and how.
        public var broker: Broker
        /// The namespace the agent publishes in (default `-`); must be a valid event filter.
        public var namespace: String
        /// Whether the agent also observes events of every other namespace.
        public var isCrossNamespacing: Bool
        /// The IO nodes the agent has, one per IO context: advertised after the identity, listed in
        /// the last will; a node without a parent gets the identity as parent (as in coaty-js).
        public var ioNodes: [IoNode]
        /// How to retry after a lost or failed connection.
        public var reconnect: ReconnectPolicy
        /// Publications made while offline.
        public var offlineQueue: OfflineQueueLimits
        /// How many events each observer may have waiting before ``observerOverflow`` applies.
        public var observerBufferSize: Int
        /// What an observer's full buffer does: hold the connection back (the default) or drop
        /// events (counted). One observer can choose otherwise with ``EventStream/overflowPolicy(_:)``.
        public var observerOverflow: OverflowPolicy
        /// How many inbound messages may wait between the network thread's reads and the agent's
        /// routing before the connection stops reading (nothing is dropped).
        public var inboundBufferSize: Int
        /// The largest inbound payload, in bytes, that the agent decodes; larger ones are dropped and counted.
        public var maximumPayloadSize: Int
        /// When a two-way request is published relative to its response subscription.
        public var requestPublication: RequestPublication
        /// Whether each request subscribes to its own responses, or the agent keeps one
        /// subscription per response type for the whole namespace.
        public var responseSubscription: ResponseSubscription
        /// The MQTT QoS of the agent's publications and subscriptions (coaty-js always uses 0).
        public var qos: MQTTQoS
        /// How long at most the agent's network thread polls its socket instead of sleeping after a
        /// two-way request goes out (default ``defaultResponseBusyPoll``; `.zero` turns it off; a
        /// second at most). It stops as soon as the request's first fitting response arrives, or
        /// the request ends.
        ///
        /// The response is then read the moment it arrives. A sleeping thread on an idle CPU takes
        /// long to wake, on virtual machines tens of microseconds: as long as the rest of a round
        /// trip to a nearby broker. Polling costs CPU time, about one round trip per request and this
        /// long at most (overlapping requests share it), and yields the CPU to other runnable
        /// threads on every pass. It speeds up most a request made from the agent's
        /// ``Agent/executor``; one made from the global pool still waits for a pool thread to wake
        /// up for the response.
        public var responseBusyPoll: Duration
        /// Where the agent's metrics go (see the `Metrics` article); `nil`, the default, is the
        /// factory the program bootstrapped with swift-metrics' `MetricsSystem`, if any.
        public var metricsFactory: (any MetricsFactory)?
        /// The responder group of every request this agent answers (`nil`, the default: none): of
        /// the agents in one group, each request reaches one. The identity's own Discover responder
        /// is never shared (see <doc:ReplicatedResponders>).
        public var responderGroup: String?

        /// Creates a configuration.
        public init(
            identity: Identity = Identity(),
            broker: Broker = Broker(),
            namespace: String = "-",
            isCrossNamespacing: Bool = false,
            ioNodes: [IoNode] = [],
            reconnect: ReconnectPolicy = ReconnectPolicy(),
            offlineQueue: OfflineQueueLimits = OfflineQueueLimits(),
            observerBufferSize: Int = 10_000,
            observerOverflow: OverflowPolicy = .backpressure,
            inboundBufferSize: Int = 10_000,
            maximumPayloadSize: Int = 8 << 20,
            requestPublication: RequestPublication = .pipelined,
            responseSubscription: ResponseSubscription = .perRequest,
            qos: MQTTQoS = .atMostOnce,
            responseBusyPoll: Duration = Configuration.defaultResponseBusyPoll,
            responderGroup: String? = nil
        ) {
            self.identity = identity
            self.broker = broker
            self.namespace = namespace
            self.isCrossNamespacing = isCrossNamespacing
            self.ioNodes = ioNodes
            self.reconnect = reconnect
            self.offlineQueue = offlineQueue
            self.observerBufferSize = observerBufferSize
            self.observerOverflow = observerOverflow
            self.inboundBufferSize = inboundBufferSize
            self.maximumPayloadSize = maximumPayloadSize
            self.requestPublication = requestPublication
            self.responseSubscription = responseSubscription
            self.qos = qos
            self.responseBusyPoll = responseBusyPoll
            self.responderGroup = responderGroup
        }

        /// 300 µs when the machine has more than one CPU online, else zero: polling on the only CPU
        /// would hold up the very threads that produce the response. (A container limited to one
        /// CPU's worth of time on a larger machine should set ``responseBusyPoll`` to `.zero`.)
        ///
        /// 300 µs covers a round trip to a broker on the same machine or network, so a response from
        /// one usually arrives while the thread polls; a slower one is read after an ordinary wake-up.
        public static let defaultResponseBusyPoll: Duration = onlineProcessors() > 1 ? .microseconds(300) : .zero

        /// The CPUs online, at least 1.
        package static func onlineProcessors() -> Int {
            max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
        }
    }

    /// Where the broker is and how to log in.
    public struct Broker: Sendable {
        /// `mqtt://host:port` or `mqtts://host:port` (default ports 1883 and 8883).
        public var url: String
        /// The user name, if the broker wants one.
        public var username: String?
        /// The password, if the broker wants one. Prefer reading it from a file or the environment.
        public var password: String?
        /// TLS settings, used with `mqtts://`.
        public var tls: TLS
        /// How often the client pings an idle broker; the broker drops it after 1.5 × this.
        public var keepAlive: Duration
        /// The MQTT protocol version (3.1.1 by default, as coaty-js).
        public var protocolVersion: MQTTVersion
        /// Acknowledge the broker's packets at once when nothing is sent back (`TCP_QUICKACK`) and
        /// send without delay (`TCP_NODELAY`); on by default, it removes a 40 ms stall per request
        /// on default brokers.
        public var usesLowLatencySocket: Bool

        /// Creates broker settings.
        public init(
            url: String = "mqtt://127.0.0.1:1883",
            username: String? = nil,
            password: String? = nil,
            tls: TLS = TLS(),
            keepAlive: Duration = .seconds(60),
            protocolVersion: MQTTVersion = .v311,
            usesLowLatencySocket: Bool = true
        ) {
            self.url = url
            self.username = username
            self.password = password
            self.tls = tls
            self.keepAlive = keepAlive
            self.protocolVersion = protocolVersion
            self.usesLowLatencySocket = usesLowLatencySocket
        }
    }

    /// TLS settings for `mqtts://` brokers. The broker's certificate is verified by default.
    public struct TLS: Sendable {
        /// A PEM file with the certificate authorities to trust (else the system's).
        public var caFile: String?
        /// A PEM client certificate, for brokers that require one.
        public var certificateFile: String?
        /// The private key of ``certificateFile``.
        public var keyFile: String?
        /// Skip verifying the broker's certificate and host name. Only for tests; never the default.
        public var allowsInsecureConnection: Bool

        /// Creates TLS settings.
        public init(
            caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
            allowsInsecureConnection: Bool = false
        ) {
            self.caFile = caFile
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.allowsInsecureConnection = allowsInsecureConnection
        }
    }

    /// Bounds of the queue of publications made while offline.
    public struct OfflineQueueLimits: Sendable {
        /// The most publications kept.
        public var maximumCount: Int
        /// The most payload bytes kept.
        public var maximumBytes: Int
        /// What to drop when the queue is full.
        public var dropPolicy: OfflineDropPolicy

        /// Creates limits (default 10,000 publications, 64 MiB, drop the oldest).
        public init(maximumCount: Int = 10_000, maximumBytes: Int = 64 << 20, dropPolicy: OfflineDropPolicy = .dropOldest) {
            self.maximumCount = maximumCount
            self.maximumBytes = maximumBytes
            self.dropPolicy = dropPolicy
        }
    }

    /// When a two-way request goes out relative to the subscription for its responses.
    public struct RequestPublication: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable, Sendable { case afterAcknowledgement, pipelined }
        private let base: Base

        /// Publish once the broker acknowledged the response subscription (SUBACK): one extra round
        /// trip to the broker per request (about 0.1–0.2 ms here). A refused subscription makes the
        /// request method throw `AgentError.Code.subscribeFailed` and nothing is published.
        public static let afterSubscriptionAcknowledged = RequestPublication(base: .afterAcknowledgement)
        /// Publish right behind the SUBSCRIBE on the same connection (the default, as coaty-js does).
        /// The broker handles a client's packets in order, so the subscription is in place before any
        /// responder sees the request, and the agent routes a response even if it arrives before the
        /// SUBACK. A refused subscription ends the responses: ``Responses/first()`` throws
        /// `AgentError.Code.subscribeFailed` (the request has gone out).
        public static let pipelined = RequestPublication(base: .pipelined)

        /// The option's name.
        public var description: String { "\(base)" }
    }

    /// How an agent subscribes to the responses of its two-way requests. Either way the wire is what
    /// coaty-js expects: responders see the same requests and answer on the same topics.
    public struct ResponseSubscription: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Hashable, Sendable { case perRequest, namespaceWide }
        private let base: Base

        /// Subscribe to each request's own response topic (`…/RSV/+/<correlation id>`) before
        /// publishing it, and unsubscribe when its responses end, as coaty-js does. The UNSUBSCRIBE
        /// goes out when the agent's network thread is next awake (within a second), so that a
        /// caller's next request reaches the broker before it.
        public static let perRequest = ResponseSubscription(base: .perRequest)
        /// Subscribe once per response type to every response in the namespace (`…/RSV/+/+`) and keep
        /// the subscription; responses are matched to requests by their correlation id here.
        ///
        /// It saves a SUBSCRIBE, a SUBACK, an UNSUBSCRIBE and an UNSUBACK per request — most of the
        /// cost of a round trip. In exchange the agent also receives the responses to other agents'
        /// requests in its namespace, which it drops (counted in ``AgentStatistics/unroutedMessages``).
        /// Suits agents that make many requests in a namespace with little other request traffic.
        public static let namespaceWide = ResponseSubscription(base: .namespaceWide)

        /// The option's name.
        public var description: String { "\(base)" }
    }

}
