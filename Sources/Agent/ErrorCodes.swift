public import CoreTypes

// Every error code of Agent, by error type (see ErrorCode).

// MARK: - AgentError

extension AgentError.Code {
    /// A configuration value is not usable (bad broker URL, invalid namespace, …).
    public static var invalidConfiguration: Self { Self("invalidConfiguration") }
    /// The event cannot be published (invalid object, topic, filter, …).
    public static var invalidEvent: Self { Self("invalidEvent") }
    /// ``Agent/run()`` was called a second time; an agent runs once (make a new one to run again).
    public static var alreadyRunning: Self { Self("alreadyRunning") }
    /// The agent has stopped.
    public static var stopped: Self { Self("stopped") }
    /// The broker could not be reached or refused the agent, and the reconnect policy gave up.
    public static var connectionFailed: Self { Self("connectionFailed") }
    /// libmosquitto refused a subscription.
    public static var subscribeFailed: Self { Self("subscribeFailed") }
    /// A two-way request got no response in time.
    public static var responseTimedOut: Self { Self("responseTimedOut") }
}

// MARK: - ContainerError

extension ContainerError.Code {
    /// Two components register the same object type (or the same fragment field).
    public static var duplicateObjectType: Self { Self("duplicateObjectType") }
    /// An object type or fragment field cannot be registered (invalid or reserved name).
    public static var invalidObjectType: Self { Self("invalidObjectType") }
    /// Two controllers have the same name.
    public static var duplicateController: Self { Self("duplicateController") }
    /// A controller name is empty.
    public static var invalidControllerName: Self { Self("invalidControllerName") }
    /// The configuration has options for a controller that the components do not have.
    public static var unknownController: Self { Self("unknownController") }
    /// A controller's options do not decode as the options it reads.
    public static var invalidOptions: Self { Self("invalidOptions") }
    /// The agent part of the configuration is not usable (broker URL, namespace, identity).
    public static var invalidConfiguration: Self { Self("invalidConfiguration") }
    /// A controller could not be created, or one of its hooks or its ``Controller/run()`` threw.
    public static var controllerFailed: Self { Self("controllerFailed") }
    /// ``Container/run()`` was called a second time.
    public static var alreadyRunning: Self { Self("alreadyRunning") }
}

// MARK: - MosquittoError

extension MosquittoError.Code {
    /// A broker URL could not be parsed.
    package static var invalidBrokerURL: Self { Self("invalid broker URL") }
    /// An argument was rejected: a topic, a payload size, a client id, a keep-alive, a file path.
    package static var invalidArgument: Self { Self("invalid argument") }
    /// The broker could not be reached: nothing listens there, no route, or the name did not resolve.
    package static var unreachable: Self { Self("broker unreachable") }
    /// The broker answered CONNECT with a refusal other than an authorisation failure.
    package static var refused: Self { Self("connection refused by the broker") }
    /// The broker refused the credentials or the client is not authorised.
    package static var notAuthorized: Self { Self("not authorised") }
    /// The TLS set-up or handshake failed.
    package static var tlsFailure: Self { Self("TLS failure") }
    /// An established connection was lost.
    package static var connectionLost: Self { Self("connection lost") }
    /// The broker did not answer a keep-alive ping in time.
    package static var keepAliveTimeout: Self { Self("keep-alive timeout") }
    /// The broker sent something that breaks the MQTT protocol.
    package static var protocolError: Self { Self("protocol error") }
    /// The operation needs a network connection and there is none.
    package static var noConnection: Self { Self("not connected") }
    /// `connect()` was called while the client still has a connection.
    package static var alreadyConnected: Self { Self("already connected") }
    /// The client or its event loop was closed.
    package static var closed: Self { Self("closed") }
    /// libmosquitto ran out of memory.
    package static var outOfMemory: Self { Self("out of memory") }
    /// The broker or libmosquitto does not support what was asked.
    package static var notSupported: Self { Self("not supported") }
    /// A system call failed; ``MosquittoError/systemErrno`` says why.
    package static var system: Self { Self("system error") }
    /// A libmosquitto return code this wrapper does not expect; ``MosquittoError/libraryCode`` has it.
    package static var unexpected: Self { Self("unexpected libmosquitto error") }
}
