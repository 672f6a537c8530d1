/// Where a value being decoded sits: the enclosing object's object type and core type, and the
/// dotted path of the JSON object being read. Used to build ``ObjectDecodingError``s.
struct WireContext: Sendable {
    let objectType: String?
    let coreType: String?
    /// The dotted path of the object being read; empty at the top level.
    let path: String

    init(objectType: String?, coreType: String?, path: String = "") {
        self.objectType = objectType
        self.coreType = coreType
        self.path = path
    }

    /// The context of a top-level object, naming the object type and core type it claims.
    init(of object: JSONObject) {
        self.init(objectType: object["objectType"]?.stringValue, coreType: object["coreType"]?.stringValue)
    }

    /// The context of the member `key` of the object being read.
    func nested(_ key: String) -> WireContext {
        WireContext(objectType: objectType, coreType: coreType, path: fieldPath(key))
    }

    /// The context of element `index` of the array member `key`.
    func nested(_ key: String, index: Int) -> WireContext {
        WireContext(objectType: objectType, coreType: coreType, path: fieldPath(key) + "." + String(index))
    }

    func fieldPath(_ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// An error about the member `key` of the object being read.
    func error(_ key: String?, _ reason: String) -> ObjectDecodingError {
        let field: String? =
            if let key { fieldPath(key) } else { path.isEmpty ? nil : path }
        return ObjectDecodingError(objectType: objectType, coreType: coreType, field: field, reason: reason)
    }

    /// The error for a required member that is absent.
    func missing(_ key: String) -> ObjectDecodingError {
        error(key, "is required but missing")
    }
}
