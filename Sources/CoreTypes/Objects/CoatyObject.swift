/// A Coaty object: the unit of data that agents advertise, discover, query, update and share.
///
/// On the wire a Coaty object is a JSON object with the base fields below plus the fields of its
/// core type plus any fields an application adds. In Swift every object is a value of a type that
/// conforms to `CoatyObject`: one of the twelve core types (``BaseObject``, ``User``, ``TaskObject``,
/// …) or an application type registered with an ``ObjectTypeRegistry``.
///
/// An application type declares the fields it uses; the protocol supplies defaults for the
/// optional base fields and for ``custom``:
///
/// ```swift
/// struct Light: CoatyObject {
///     static let coreType = CoreType.coatyObject
///     static let objectType = "com.example.Light"
///     var objectID = ObjectID.make()
///     var name: String
///     var isOn: Bool
///     @CustomFields var custom: JSONObject   // optional: keeps members Light does not declare
/// }
/// ```
///
/// When the registry encodes an object it writes `coreType` and `objectType` even if the Swift
/// type does not store them, and writes ``custom`` back at the top level. Swift spells the ids
/// `objectID`, `externalID`, `parentObjectID` and `locationID`; the wire keeps coaty-js's
/// `objectId`, `externalId`, `parentObjectId` and `locationId` (the registry maps them).
public protocol CoatyObject: Codable, Sendable {
    /// The core type this Swift type extends.
    static var coreType: CoreType { get }
    /// The object type this Swift type stands for; the registry registers the type under it.
    /// Defaults to the core type's canonical object type (`coaty.Task` for ``TaskObject``).
    static var objectType: String { get }

    /// The core type of this object; defaults to the type's ``coreType-swift.type.property``.
    ///
    /// Only ``BaseObject`` overrides it: a base object may carry the base fields of an object of
    /// any core type (as coaty-js's `CoreTypes.isObject(obj, "CoatyObject")` accepts every core type).
    var coreType: CoreType { get }
    /// The object's unique id, usually a lowercase UUID v4 (``ObjectID/make()``); any non-empty string.
    var objectID: String { get }
    /// The object's type, in reverse-domain notation; defaults to the type's ``objectType-swift.type.property``.
    var objectType: String { get }
    /// A name for the object; may be empty.
    var name: String { get }
    /// An id the object has outside Coaty (a barcode, a database key); must be non-empty when set.
    var externalID: String? { get }
    /// The id of the object this one belongs to; must be non-empty when set.
    var parentObjectID: String? { get }
    /// The id of a ``Location`` object; must be non-empty when set.
    var locationID: String? { get }
    /// Whether the object is deactivated; the meaning is up to the application.
    var isDeactivated: Bool? { get }
    /// Every member of the wire object that this Swift type does not declare, in wire order.
    var custom: JSONObject { get set }

    /// The wire form of this object, as events send it. The default encodes the type with
    /// `Codable`; the core types and ``WireCodable`` types write their members directly.
    func jsonObject() throws -> JSONObject
}

extension CoatyObject {
    /// The canonical object type of ``coreType-swift.type.property``.
    public static var objectType: String { coreType.canonicalObjectType }

    /// Defaults to the type's ``coreType-swift.type.property``.
    public var coreType: CoreType { Self.coreType }

    /// Defaults to the type's ``objectType-swift.type.property``.
    public var objectType: String { Self.objectType }

    /// Defaults to `nil`.
    public var externalID: String? { nil }

    /// Defaults to `nil`.
    public var parentObjectID: String? { nil }

    /// Defaults to `nil`.
    public var locationID: String? { nil }

    /// Defaults to `nil`.
    public var isDeactivated: Bool? { nil }

    /// Defaults to empty; setting it has no effect unless the type stores it (see ``CustomFields``).
    public var custom: JSONObject {
        get { [:] }
        set {}
    }
}
