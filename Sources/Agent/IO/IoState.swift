/// The IO state of one of an agent's IO sources or actors: whether a router has associated it,
/// and, for a source, the update rate the router recommends (milliseconds).
///
/// It is local information (coaty-js's `IoStateEvent`), never on the wire. An actor's state never
/// carries a rate.
public struct IoState: Sendable, Hashable {
    /// Whether the point is associated with at least one counterpart.
    public var hasAssociations: Bool
    /// The interval between IO values the router recommends for a source, in milliseconds;
    /// `nil` for actors and when the latest Associate gave none.
    public var updateRate: Double?

    /// Creates an IO state.
    public init(hasAssociations: Bool, updateRate: Double? = nil) {
        self.hasAssociations = hasAssociations
        self.updateRate = updateRate
    }

    /// Not associated, no rate: the state before the first Associate and after the agent stops.
    public static let unassociated = IoState(hasAssociations: false)
}
