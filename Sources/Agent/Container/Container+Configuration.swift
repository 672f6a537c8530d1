public import CoreTypes

extension Container {
    /// Everything a container needs besides its components: how its agent joins the network,
    /// and each controller's options.
    ///
    /// ```swift
    /// var configuration = Container.Configuration()
    /// configuration.identity = Identity(name: "Lamp controller")
    /// configuration.broker.url = "mqtt://broker.local:1883"
    /// configuration.controllerOptions["ObjectCacheController"] = ["timeToLive": 60]
    /// ```
    public struct Configuration: Sendable {
        /// The agent's identity, broker, namespace and limits.
        public var agent: Agent.Configuration
        /// Options by controller name; a name no component has is a bootstrap error.
        public var controllerOptions: [String: ControllerOptions]
        /// Where the controllers run; ``ControllerExecution/globalPool`` unless set.
        public var controllerExecution: ControllerExecution

        /// Creates a configuration.
        public init(
            agent: Agent.Configuration = Agent.Configuration(), controllerOptions: [String: ControllerOptions] = [:],
            controllerExecution: ControllerExecution = .globalPool
        ) {
            self.agent = agent
            self.controllerOptions = controllerOptions
            self.controllerExecution = controllerExecution
        }

        /// The agent's identity (``Agent/Configuration/identity``).
        public var identity: Identity {
            get { agent.identity }
            set { agent.identity = newValue }
        }

        /// The broker (``Agent/Configuration/broker``).
        public var broker: Agent.Broker {
            get { agent.broker }
            set { agent.broker = newValue }
        }

        /// The namespace (``Agent/Configuration/namespace``).
        public var namespace: String {
            get { agent.namespace }
            set { agent.namespace = newValue }
        }
    }
}
