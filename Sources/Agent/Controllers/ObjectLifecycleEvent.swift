public import CoreTypes

/// A change in the set of objects an ``ObjectLifecycleController`` observation tracks.
///
/// coaty-js reports the same changes as `ObjectLifecycleInfo` (`added`, `changed`, `removed`).
public enum ObjectLifecycleEvent: Sendable {
    /// An object was discovered or advertised for the first time: an agent joined, an object appeared.
    case added(any CoatyObject)
    /// A tracked object was advertised again with different content.
    case changed(any CoatyObject)
    /// A tracked object left: it, or an object it belongs to (its `parentObjectId`, directly or
    /// further up), was deadvertised, also by the last will of an agent that died.
    case removed(any CoatyObject)

    /// The object concerned.
    public var object: any CoatyObject {
        switch self {
        case .added(let object), .changed(let object), .removed(let object): return object
        }
    }

    /// `added`, `changed` or `removed`.
    public var kind: Kind {
        switch self {
        case .added: return .added
        case .changed: return .changed
        case .removed: return .removed
        }
    }

    /// The kind of a change, without the object.
    public enum Kind: Sendable, Hashable {
        /// See ``ObjectLifecycleEvent/added(_:)``.
        case added
        /// See ``ObjectLifecycleEvent/changed(_:)``.
        case changed
        /// See ``ObjectLifecycleEvent/removed(_:)``.
        case removed
    }
}
