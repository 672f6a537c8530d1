/// What happens when an observer's buffer is full (``Agent/Configuration/observerBufferSize``
/// events wait for the observing task).
public struct OverflowPolicy: Sendable, Hashable, CustomStringConvertible {
    enum Base: Hashable, Sendable { case backpressure, dropNewest, dropOldest }
    let base: Base

    /// Nothing is lost: the agent stops reading its connection until the observer has taken half
    /// of its buffer, so TCP and the broker hold the messages meanwhile (the default). Every other
    /// observer of the agent waits too; an observer that stops reading for more than about twice
    /// the keep-alive interval makes the connection time out (and reconnect).
    public static let backpressure = OverflowPolicy(base: .backpressure)
    /// The new event is dropped and counted (``AgentStatistics/droppedObserverEvents``): an
    /// observer that falls behind loses the newest events and slows nobody down.
    public static let dropNewest = OverflowPolicy(base: .dropNewest)
    /// The oldest waiting event is dropped and counted: an observer that falls behind sees the latest events.
    public static let dropOldest = OverflowPolicy(base: .dropOldest)

    /// The policy's name.
    public var description: String { "\(base)" }

    /// The queue's behaviour for this policy; backpressure holds `pressure`.
    func overflow(holding pressure: ReadPressure) -> QueueOverflow {
        switch base {
        case .backpressure: .backpressure(pressure)
        case .dropNewest: .dropNewest
        case .dropOldest: .dropOldest
        }
    }
}
