/// How Swift property names map to JSON member names in ``JSONValueEncoder`` and ``JSONValueDecoder``.
///
/// The default keeps names as they are. ``pascalCase`` serves backends that write `SerialNumber`
/// for a Swift `serialNumber`; ``custom(_:fromWire:)`` takes any mapping. A strategy applies to
/// the keys of every `Codable` structure the coder meets (like Foundation's key strategies), but
/// never to the members of ``JSONObject`` and ``JSONValue`` values, which pass through as they are.
///
/// An application object type opts in through ``WireKeyNaming``; the base fields of Coaty objects
/// (`objectId`, `objectType`, `coreType`, `name`, `externalId`, `parentObjectId`, `locationId`,
/// `isDeactivated`) keep their names at the top level of the object.
public struct JSONKeyStrategy: Sendable {
    enum Base: Sendable {
        case identity
        case pascalCase
        case custom(toWire: @Sendable (String) -> String, fromWire: (@Sendable (String) -> String)?)
    }

    let base: Base

    /// Keys are written and read exactly as the Swift names (the default).
    public static let useDefaultKeys = JSONKeyStrategy(base: .identity)

    /// The first letter is upper-cased on the wire: Swift `serialNumber` ↔ wire `SerialNumber`.
    /// Reading lower-cases the first letter of wire names where a Swift name is needed (``JSONValueDecoder``'s `allKeys`).
    public static let pascalCase = JSONKeyStrategy(base: .pascalCase)

    /// Maps each Swift name with `toWire`.
    ///
    /// - Parameters:
    ///   - toWire: The wire name of a Swift property name. Called for every key read or written.
    ///   - fromWire: The Swift name of a wire name, needed only when a decoder lists its keys (for
    ///     example to decode a `[String: T]` dictionary); without it wire names are listed unchanged.
    public static func custom(
        _ toWire: @escaping @Sendable (String) -> String, fromWire: (@Sendable (String) -> String)? = nil
    ) -> JSONKeyStrategy {
        JSONKeyStrategy(base: .custom(toWire: toWire, fromWire: fromWire))
    }

    /// Whether names pass unchanged.
    var isIdentity: Bool {
        if case .identity = base { return true }
        return false
    }

    /// The wire name of the Swift name `key`.
    public func wireName(for key: String) -> String {
        switch base {
        case .identity: return key
        case .pascalCase: return Self.changingFirstLetter(of: key, upper: true)
        case .custom(let toWire, _): return toWire(key)
        }
    }

    /// The Swift name of the wire name `key`.
    public func swiftName(for key: String) -> String {
        switch base {
        case .identity: return key
        case .pascalCase: return Self.changingFirstLetter(of: key, upper: false)
        case .custom(_, let fromWire): return fromWire?(key) ?? key
        }
    }

    private static func changingFirstLetter(of key: String, upper: Bool) -> String {
        guard let first = key.unicodeScalars.first else { return key }
        let changed = upper ? first.properties.uppercaseMapping : first.properties.lowercaseMapping
        if changed.unicodeScalars.count == 1, changed.unicodeScalars.first == first { return key }
        return changed + String(key.unicodeScalars.dropFirst())
    }
}

/// An application object type whose members use a ``JSONKeyStrategy`` on the wire.
///
/// ```swift
/// struct Meter: CoatyObject, WireKeyNaming {
///     static let coreType = CoreType.coatyObject
///     static let objectType = "com.example.Meter"
///     static let wireKeyStrategy = JSONKeyStrategy.pascalCase
///     var objectID = ObjectID.make()
///     var name: String
///     var serialNumber: String        // "SerialNumber" on the wire; objectId and name stay as they are
/// }
/// ```
public protocol WireKeyNaming {
    /// The strategy for this type's members (the base fields at the top level keep their names).
    static var wireKeyStrategy: JSONKeyStrategy { get }
}
