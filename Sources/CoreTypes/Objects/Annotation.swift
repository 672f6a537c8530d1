/// A note attached to something (a text, an image, a video, a web page …); core type `Annotation`.
public struct Annotation: CoatyObject, ObjectBaseStoring, Hashable {
    /// The core type `Annotation`.
    public static let coreType = CoreType.annotation

    /// The base fields: ``objectID``, ``objectType``, ``name`` and the optional ones.
    public var base: ObjectBase
    /// What kind of annotation this is.
    public var type: AnnotationType
    /// The id of the object (usually a user) that created the annotation.
    public var creatorID: String
    /// When the annotation was created, in milliseconds since the Unix epoch.
    public var creationTimestamp: Double
    /// Where the annotation is stored.
    public var status: AnnotationStatus
    /// Variants of the annotation's content, such as resolutions of an image.
    public var variants: [AnnotationVariant]?
    /// Every member this type does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an Annotation object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Annotation.objectType, name: String,
        type: AnnotationType, creatorID: String, creationTimestamp: Double, status: AnnotationStatus,
        variants: [AnnotationVariant]? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.base = ObjectBase(
            objectID: objectID, objectType: objectType, name: name, externalID: externalID,
            parentObjectID: parentObjectID, locationID: locationID, isDeactivated: isDeactivated)
        self.type = type
        self.creatorID = creatorID
        self.creationTimestamp = creationTimestamp
        self.status = status
        self.variants = variants
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates an object of core type `Annotation`, as coaty-js's
    /// `CoreTypes.isObject(obj, "Annotation")` does; members this type does not declare go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(of: jsonObject), registry: ObjectTypeRegistry())
    }
}

extension Annotation: CoreObject {
    init(wire object: JSONObject, context: WireContext, registry: ObjectTypeRegistry) throws(ObjectDecodingError) {
        var base = BaseFields()
        var custom = JSONObject()
        var type: AnnotationType?
        var creatorID: String?
        var creationTimestamp: Double?
        var status: AnnotationStatus?
        var variants: [AnnotationVariant]?
        for (key, member) in object {
            if try base.read(key, member, context) { continue }
            switch key {
            case "type": type = try Wire.enumeration(member, key, context, AnnotationType.self)
            case "creatorId": creatorID = try Wire.nonEmptyString(member, key, context)
            case "creationTimestamp": creationTimestamp = try Wire.number(member, key, context)
            case "status": status = try Wire.enumeration(member, key, context, AnnotationStatus.self)
            case "variants":
                variants = try Wire.objectArray(member, key, context) { object, context throws(ObjectDecodingError) in
                    try AnnotationVariant(wire: object, context: context)
                }
            default: custom.appendNew(key, member)
            }
        }
        let fields = try base.required(as: .annotation, context)
        guard let type else { throw context.missing("type") }
        guard let creatorID else { throw context.missing("creatorId") }
        guard let creationTimestamp else { throw context.missing("creationTimestamp") }
        guard let status else { throw context.missing("status") }
        self.base = fields
        self.type = type
        self.creatorID = creatorID
        self.creationTimestamp = creationTimestamp
        self.status = status
        self.variants = variants
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = baseHead(capacity: 13)
        head.appendNew("type", .int(type.rawValue))
        head.appendNew("creatorId", .string(creatorID))
        head.appendNew("creationTimestamp", .double(creationTimestamp))
        head.appendNew("status", .int(status.rawValue))
        if let variants { head.appendNew("variants", .array(variants.map { .object($0.wireObject()) })) }
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// What kind of content an ``Annotation`` carries; an integer on the wire.
public enum AnnotationType: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Text.
    case text = 0
    /// An image.
    case image = 1
    /// Audio.
    case audio = 2
    /// Video.
    case video = 3
    /// A 3D object.
    case object3D = 4
    /// A PDF document.
    case pdf = 5
    /// The URL of a web document.
    case webDocumentUrl = 6
    /// The URL of live data.
    case liveDataUrl = 7
}

/// Where an ``Annotation``'s content is stored; an integer on the wire.
public enum AnnotationStatus: Int, Sendable, Hashable, CaseIterable, Codable {
    /// Stored only locally.
    case storedLocally = 0
    /// Storage on a server is requested.
    case storageRequest = 1
    /// Published on a server.
    case published = 2
    /// Out of date.
    case outdated = 3
}

/// One variant of an ``Annotation``'s content, such as one resolution of an image.
public struct AnnotationVariant: Hashable, Sendable, Codable {
    /// The variant's name, such as "hd" (non-empty).
    public var variant: String
    /// Where to download the variant.
    public var downloadUrl: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an `AnnotationVariant`.
    public init(variant: String, downloadUrl: String, custom: JSONObject = [:]) {
        self.variant = variant
        self.downloadUrl = downloadUrl
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AnnotationVariant: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var variant: String?
        var downloadUrl: String?
        for (key, member) in object {
            switch key {
            case "variant": variant = try Wire.nonEmptyString(member, key, context)
            case "downloadUrl": downloadUrl = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let variant else { throw context.missing("variant") }
        guard let downloadUrl else { throw context.missing("downloadUrl") }
        self.variant = variant
        self.downloadUrl = downloadUrl
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 2)
        head.appendNew("variant", .string(variant))
        head.appendNew("downloadUrl", .string(downloadUrl))
        return wireOrder.merge(head: head, custom: custom)
    }
}
