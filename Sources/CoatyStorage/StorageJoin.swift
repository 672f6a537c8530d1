public import CoreTypes

/// Joins related objects into the results of a find: for each result object, the objects of
/// ``collection`` whose ``fromProperty`` equals the result's ``localProperty`` (or one of its
/// elements) are stored in the result's ``asProperty``, as coaty-js's `DbJoinCondition` does.
///
/// ```swift
/// // each task gets its location object as "location"
/// let join = StorageJoin(
///     ObjectJoinCondition(localProperty: "locationId", asProperty: "location", isOneToOneRelation: true),
///     collection: "locations")
/// for try await task in store.find(in: "tasks", joins: [join]) { … }
/// ```
///
/// The choices where coaty-js's adapters differ, following the matcher:
/// - equality is the matcher's `In`: numbers by value, strings by code units, deep for arrays and
///   objects; an absent local property (or element) relates to nothing;
/// - each related object appears once, in its collection's insertion order, however many local
///   values it matches (no duplicates);
/// - one-to-one: the first related object, and the property is removed when there is none;
///   otherwise an array, empty when nothing relates. An existing ``asProperty`` is replaced.
public struct StorageJoin: Hashable, Sendable {
    /// The collection the related objects come from.
    public var collection: String
    /// The property of a related object compared with the local value; `objectId` by default.
    public var fromProperty: String
    /// The top-level property of a result object that holds the reference (or references).
    public var localProperty: String
    /// The top-level property of a result object that receives the related object(s).
    public var asProperty: String
    /// Whether ``localProperty`` holds an array of references.
    public var isLocalPropertyArray: Bool
    /// Whether a single object rather than an array is stored.
    public var isOneToOneRelation: Bool

    /// A join of `collection` on `fromProperty` as a Query's join condition describes it.
    public init(_ condition: ObjectJoinCondition, collection: String, fromProperty: String = "objectId") {
        self.collection = collection
        self.fromProperty = fromProperty
        localProperty = condition.localProperty
        asProperty = condition.asProperty
        isLocalPropertyArray = condition.isLocalPropertyArray ?? false
        isOneToOneRelation = condition.isOneToOneRelation ?? false
    }

    /// The path of ``fromProperty`` (one name, dots included).
    var fromPath: PropertyPath { PropertyPath(components: [fromProperty]) }

    /// The values of `object` that reference related objects.
    func localValues(of object: JSONObject) -> [JSONValue] {
        guard let value = object[localProperty] else { return [] }
        guard isLocalPropertyArray else { return [value] }
        return value.arrayValue ?? []
    }

    /// `object` with `related` stored in ``asProperty``.
    func store(_ related: [JSONObject], in object: JSONObject) -> JSONObject {
        var object = object
        if isOneToOneRelation {
            object[asProperty] = related.first.map(JSONValue.object)
        } else {
            object[asProperty] = .array(related.map(JSONValue.object))
        }
        return object
    }
}
