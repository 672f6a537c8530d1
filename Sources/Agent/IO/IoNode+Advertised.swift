import CoreTypes

extension IoNode {
    /// The members coaty-js's communication manager gives an IO node it makes from
    /// `ioContextNodes`, in its order (`characteristics` only when configured).
    static let advertisedOrder = [
        "name", "coreType", "objectType", "objectId", "parentObjectId", "ioSources", "ioActors", "characteristics",
    ]

    /// The node as an agent advertises it: owned by the agent's identity unless it has a parent,
    /// with empty source and actor lists rather than none, its members in coaty-js's order.
    func advertised(by identityID: String) throws -> IoNode {
        var node = self
        node.parentObjectID = node.parentObjectID ?? identityID
        node.ioSources = node.ioSources ?? []
        node.ioActors = node.ioActors ?? []
        let json = try node.jsonObject()
        let known = Self.advertisedOrder.compactMap { key in json[key].map { (key, $0) } }
        let others = json.filter { !Self.advertisedOrder.contains($0.key) }.map { ($0.key, $0.value) }
        return try IoNode(jsonObject: JSONObject(known + others))
    }
}
