/// One sort key of an ``ObjectFilter``: a property path and a direction, `["path", "Asc"]` on the
/// wire.
public struct OrderByProperty: Hashable, Sendable {
    /// The sort direction.
    public enum Order: String, Hashable, Sendable, CaseIterable {
        /// Smallest first; absent values come first. Wire value `"Asc"`.
        case ascending = "Asc"
        /// Largest first; absent values come last. Wire value `"Desc"`.
        case descending = "Desc"
    }

    /// The property sorted on.
    public var path: PropertyPath
    /// The direction.
    public var order: Order

    /// A sort key on `path`.
    public init(_ path: PropertyPath, _ order: Order = .ascending) {
        self.path = path
        self.order = order
    }

    /// Decodes `[path, "Asc" | "Desc"]`; the path may be any string or an array of strings.
    ///
    /// - Throws: ``FilterError`` with code `FilterError.Code.invalidOrderBy`.
    public init(json: JSONValue) throws {
        try self.init(json: json, at: "orderByProperties[]")
    }

    init(json: JSONValue, at location: String) throws {
        guard case .array(let elements) = json, elements.count == 2 else {
            throw FilterError(
                code: .invalidOrderBy,
                detail: "\(location): expected a pair [path, \"Asc\" | \"Desc\"], found \(json.serializedString())")
        }
        guard case .string(let direction) = elements[1], let order = Order(rawValue: direction) else {
            throw FilterError(
                code: .invalidOrderBy,
                detail: "\(location)[1]: the order must be \"Asc\" or \"Desc\", found \(elements[1].serializedString())"
            )
        }
        do {
            path = try PropertyPath(json: elements[0], at: "\(location)[0]")
        } catch let error as FilterError {
            throw FilterError(code: .invalidOrderBy, detail: error.detail)
        }
        self.order = order
    }

    /// The wire form `[path, "Asc" | "Desc"]`.
    public var json: JSONValue {
        .array([path.json, .string(order.rawValue)])
    }
}
