/// The unit of a ``Sensor``'s observations, following the Unified Code for Units of Measure (UCUM).
///
/// A sensor without a unit (a truth observation) leaves the three values `nil`; the unit itself
/// is still sent, as an empty object (coaty-js's rule).
public struct UnitOfMeasurement: Hashable, Sendable, Codable {
    /// The unit's full name, such as `Degree Celsius`.
    public var name: String?
    /// The unit's symbol, such as `degC`.
    public var symbol: String?
    /// A URI defining the unit.
    public var definition: String?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or `name`, `symbol`, `definition`).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension UnitOfMeasurement {
    /// Creates a unit.
    public init(name: String? = nil, symbol: String? = nil, definition: String? = nil, custom: JSONObject = [:]) {
        self.init(name: name, symbol: symbol, definition: definition, custom: custom, wireOrder: .none)
    }
}

extension UnitOfMeasurement: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<UnitOfMeasurement>([
        .optional("name", \.name),
        .optional("symbol", \.symbol),
        .optional("definition", \.definition),
    ])
    static let wireTemplate = UnitOfMeasurement()
}
