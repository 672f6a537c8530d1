import CoreTypes

/// The application type of the session scenarios: coaty-js's `com.example.Light` objects, as a
/// registered Swift type (core type `CoatyObject`).
///
/// The members are declared in the order the coaty-js scenarios wrote them, so a Swift-made light
/// encodes to the same bytes: `objectId`, then `objectType` and `coreType` (added by the
/// registry), `name`, `externalId`, `isOn`, `luminosity`, `color`, `floor`.
struct SessionLight: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.Light"
    var objectID: String
    var name: String
    var externalID: String?
    var isOn: Bool
    var luminosity: Double
    var color: [Int]?
    var floor: Int
}

/// The fixed objects of the session scenarios (the ids of the vectors README).
enum SessionFixtures {
    static let light1 = SessionLight(
        objectID: "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2", name: "Light 1", externalID: "ext-light-1", isOn: false,
        luminosity: 0.5, color: [255, 255, 255], floor: 1)
    static let light2 = SessionLight(
        objectID: "3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f", name: "Light 2", isOn: true, luminosity: 1, floor: 2)
    static let light3 = SessionLight(
        objectID: "b7c9e1f3-a5b7-4c9d-8e1f-3a5b7c9d1e3f", name: "Light 3", isOn: false, luminosity: 0.1, floor: 2)
    static let lights = [light1, light2, light3]

    /// The room on floor 2 that the context-filter scenarios use as the callee's context.
    static let roomOnFloor2 = BaseObject(
        objectID: "6f0e9d8c-7b6a-4594-8382-716a5b4c3d2e", objectType: "com.example.Room", name: "Room 2",
        custom: ["floor": 2])

    /// Requests stay open until the agent stops, as a coaty-js observable stays subscribed; the
    /// scenarios never wait for this timeout.
    static let openRequest = Duration.seconds(3600)

    /// The registry every scenario agent uses: it knows ``SessionLight``.
    static func registry() throws -> ObjectTypeRegistry {
        var registry = ObjectTypeRegistry()
        try registry.register(SessionLight.self)
        return registry
    }
}
