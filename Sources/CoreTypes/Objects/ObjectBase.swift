/// The fields every Coaty object has, whatever its core type (coaty-js's `CoatyObject` interface
/// without `coreType`, which the Swift type knows).
public struct ObjectBase: Sendable, Hashable {
    /// The object's unique id, usually a lowercase UUID v4 (``ObjectID/make()``); any non-empty string.
    public var objectID: String
    /// The object's type, in reverse-domain notation (`coaty.Task`, `com.example.Light`).
    public var objectType: String
    /// A name for the object; may be empty.
    public var name: String
    /// An id the object has outside Coaty (a barcode, a database key); non-empty when set.
    public var externalID: String?
    /// The id of the object this one belongs to; non-empty when set.
    public var parentObjectID: String?
    /// The id of a ``Location`` object; non-empty when set.
    public var locationID: String?
    /// Whether the object is deactivated; the meaning is up to the application.
    public var isDeactivated: Bool?

    /// Creates the base fields of an object.
    public init(
        objectID: String = ObjectID.make(), objectType: String, name: String, externalID: String? = nil,
        parentObjectID: String? = nil, locationID: String? = nil, isDeactivated: Bool? = nil
    ) {
        self.objectID = objectID
        self.objectType = objectType
        self.name = name
        self.externalID = externalID
        self.parentObjectID = parentObjectID
        self.locationID = locationID
        self.isDeactivated = isDeactivated
    }

    /// The base fields in declaration order, as the core types' initialisers forward them.
    init(
        _ objectID: String, _ objectType: String, _ name: String, _ externalID: String?, _ parentObjectID: String?,
        _ locationID: String?, _ isDeactivated: Bool?
    ) {
        self.init(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
    }
}

/// A Coaty object that stores its base fields in one ``ObjectBase``, as the twelve core types do:
/// the base fields' properties read and write ``base``.
public protocol ObjectBaseStoring: CoatyObject {
    /// The object's base fields.
    var base: ObjectBase { get set }
}

extension ObjectBaseStoring {
    /// The object's unique id (``ObjectBase/objectID``).
    @inlinable public var objectID: String {
        get { base.objectID }
        set { base.objectID = newValue }
    }
    /// The object's type (``ObjectBase/objectType``).
    @inlinable public var objectType: String {
        get { base.objectType }
        set { base.objectType = newValue }
    }
    /// A name for the object (``ObjectBase/name``).
    @inlinable public var name: String {
        get { base.name }
        set { base.name = newValue }
    }
    /// An id the object has outside Coaty (``ObjectBase/externalID``).
    @inlinable public var externalID: String? {
        get { base.externalID }
        set { base.externalID = newValue }
    }
    /// The id of the object this one belongs to (``ObjectBase/parentObjectID``).
    @inlinable public var parentObjectID: String? {
        get { base.parentObjectID }
        set { base.parentObjectID = newValue }
    }
    /// The id of a ``Location`` object (``ObjectBase/locationID``).
    @inlinable public var locationID: String? {
        get { base.locationID }
        set { base.locationID = newValue }
    }
    /// Whether the object is deactivated (``ObjectBase/isDeactivated``).
    @inlinable public var isDeactivated: Bool? {
        get { base.isDeactivated }
        set { base.isDeactivated = newValue }
    }
}
