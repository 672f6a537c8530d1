public import CoreTypes

/// A rule of a `RuleBasedIoRouter`: which compatible source and actor it associates.
///
/// Rules of a value type are tried before the global ones (``valueType`` `nil`); a source whose
/// value type has rules uses only those. The first rule whose condition returns `true` associates
/// the pair; a condition that throws counts as `false`.
///
/// ```swift
/// IoRoutingRule(name: "same floor", valueType: "number[Celsius]") { pair in
///     pair.sourceNode.characteristics?["floor"] == pair.actorNode.characteristics?["floor"]
/// }
/// ```
public struct IoRoutingRule: Sendable {
    /// A name for logs.
    public var name: String
    /// The value type the rule applies to; `nil` (or empty) applies it to every value type.
    public var valueType: String?
    /// Whether to associate the pair.
    public var condition: @Sendable (IoRoutingCandidate) throws -> Bool

    /// Creates a rule.
    public init(
        name: String, valueType: String? = nil, condition: @escaping @Sendable (IoRoutingCandidate) throws -> Bool
    ) {
        self.name = name
        self.valueType = valueType
        self.condition = condition
    }

    /// The rule of a `BasicIoRouter`: every compatible pair.
    public static let anyCompatiblePair = IoRoutingRule(name: "Any association on compatible value types") { _ in
        true
    }
}

/// An IO source and an IO actor of compatible value types, with their IO nodes and the router's
/// IO context: what an ``IoRoutingRule`` decides on.
public struct IoRoutingCandidate: Sendable {
    /// The source.
    public var source: IoSource
    /// The IO node (of the agent) that holds the source.
    public var sourceNode: IoNode
    /// The actor.
    public var actor: IoActor
    /// The IO node (of the agent) that holds the actor.
    public var actorNode: IoNode
    /// The router's IO context.
    public var context: IoContext
}
