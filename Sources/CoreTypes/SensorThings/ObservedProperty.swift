/// The phenomenon a ``Sensor`` observes (every observation of a sensor observes the same one).
public struct ObservedProperty: Hashable, Sendable, Codable {
    /// A label for the property; must not be empty.
    public var name: String
    /// A URI whose representation defines the property.
    public var definition: String
    /// A description of the property.
    public var description: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or `name`, `definition`, `description`).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension ObservedProperty {
    /// Creates an observed property.
    public init(name: String, definition: String, description: String, custom: JSONObject = [:]) {
        self.init(name: name, definition: definition, description: description, custom: custom, wireOrder: .none)
    }
}

extension ObservedProperty: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<ObservedProperty>([
        .required("name", \.name),
        .required("definition", \.definition),
        .required("description", \.description),
    ])
    static let wireTemplate = ObservedProperty(name: "", definition: "", description: "")

    func validateWire(_ context: WireContext) throws(ObjectDecodingError) {
        if name.isEmpty { throw context.error("name", "must be a non-empty string, found an empty string") }
    }
}
