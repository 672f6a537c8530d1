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
    var wireOrder = WireKeyOrder.none
}

extension Annotation {
    /// Creates an Annotation object.
    public init(
        objectID: String = ObjectID.make(), objectType: String = Annotation.objectType, name: String,
        type: AnnotationType, creatorID: String, creationTimestamp: Double, status: AnnotationStatus,
        variants: [AnnotationVariant]? = nil, externalID: String? = nil, parentObjectID: String? = nil,
        locationID: String? = nil, isDeactivated: Bool? = nil, custom: JSONObject = [:]
    ) {
        self.init(
            base: ObjectBase(objectID, objectType, name, externalID, parentObjectID, locationID, isDeactivated),
            type: type, creatorID: creatorID, creationTimestamp: creationTimestamp, status: status, variants: variants,
            custom: custom, wireOrder: .none)
    }
}

extension Annotation: CoreObject, WireDescribed {
    static let wireSchema = WireSchema<Annotation>([
        .required("type", \.type),
        .required("creatorId", \.creatorID, Wire.nonEmptyString),
        .required("creationTimestamp", \.creationTimestamp),
        .required("status", \.status),
        .optional("variants", \.variants),
    ])
    static let wireTemplate = Annotation(
        name: "", type: .text, creatorID: "", creationTimestamp: 0, status: .storedLocally)
}

extension AnnotationType: WireEnumeration {}
extension AnnotationStatus: WireEnumeration {}

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
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AnnotationVariant {
    /// Creates an `AnnotationVariant`.
    public init(variant: String, downloadUrl: String, custom: JSONObject = [:]) {
        self.init(variant: variant, downloadUrl: downloadUrl, custom: custom, wireOrder: .none)
    }
}

extension AnnotationVariant: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<AnnotationVariant>([
        .required("variant", \.variant, Wire.nonEmptyString),
        .required("downloadUrl", \.downloadUrl),
    ])
    static let wireTemplate = AnnotationVariant(variant: "", downloadUrl: "")
}
