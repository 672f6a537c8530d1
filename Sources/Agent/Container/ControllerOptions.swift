public import CoreTypes

/// The options a configuration gives one controller: a JSON object (from a configuration file)
/// or a typed Swift value.
///
/// The controller reads them with ``ControllerContext/options(as:)``, which decodes the JSON
/// form with `Decodable` or hands over the typed value.
///
/// ```swift
/// configuration.controllerOptions["Cache"] = ["timeToLive": 30, "policy": "networkFirst"]
/// configuration.controllerOptions["Lifecycle"] = .typed(
///     ObjectLifecycleController.Options(discoverTimeout: .seconds(2)))
/// ```
public struct ControllerOptions: Sendable, ExpressibleByDictionaryLiteral {
    enum Storage: Sendable {
        case json(JSONObject)
        case typed(any Sendable)
    }

    let storage: Storage

    /// Options given as a JSON object.
    public init(_ json: JSONObject) {
        storage = .json(json)
    }

    /// Options given as a JSON object literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = .json(JSONObject(elements))
    }

    /// Options given as a Swift value of the type the controller reads.
    public static func typed(_ value: some Sendable) -> ControllerOptions {
        ControllerOptions(storage: .typed(value))
    }

    /// No options: an empty JSON object.
    public static let none = ControllerOptions(JSONObject())

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The options as JSON, or `nil` when they were given as a typed value.
    public var json: JSONObject? {
        guard case .json(let object) = storage else { return nil }
        return object
    }
}
