public import CoreTypes

/// What a container is made of: its controllers and the application object types it decodes.
///
/// ```swift
/// let components = Components(
///     controllers: [
///         ControllerComponent(name: "Lamps") { context in try LampController(context: context) },
///         .objectLifecycle(),
///     ],
///     objectTypes: [Light.self])
/// ```
public struct Components: Sendable {
    /// The controllers, in the order the container starts them (it stops them in reverse order).
    public var controllers: [ControllerComponent]
    /// The application object types, registered in the container's `ObjectTypeRegistry`.
    public var objectTypes: [any CoatyObject.Type]
    /// Codable types registered for one custom field name each (see `ObjectTypeRegistry`).
    public var fragments: [Fragment]

    /// Creates components.
    public init(
        controllers: [ControllerComponent] = [], objectTypes: [any CoatyObject.Type] = [], fragments: [Fragment] = []
    ) {
        self.controllers = controllers
        self.objectTypes = objectTypes
        self.fragments = fragments
    }

    /// A Codable type for one custom field of Coaty objects.
    public struct Fragment: Sendable {
        /// The field name.
        public let field: String
        let register: @Sendable (inout ObjectTypeRegistry) throws -> Void

        /// Registers `type` for the custom field `field`.
        public init<F: Codable & Sendable>(_ type: F.Type, field: String) {
            self.field = field
            register = { registry in try registry.register(fragment: type, forField: field) }
        }
    }
}

/// How a container makes one controller: a name and a function from a ``ControllerContext``.
///
/// The function runs once, while the container bootstraps; it can capture whatever else the
/// controller needs from the host program (a database, a device handle).
public struct ControllerComponent: Sendable {
    /// The controller's name: unique in the container, the key of its options in the configuration.
    public let name: String
    let make: @Sendable (ControllerContext) throws -> any Controller

    /// A controller named `name`, made by `make`.
    ///
    /// - Parameters:
    ///   - name: unique in the container; the key of its options in ``Container/Configuration/controllerOptions``.
    ///   - make: creates the controller; it may read the options with ``ControllerContext/options(as:)``.
    public init(name: String, make: @escaping @Sendable (ControllerContext) throws -> any Controller) {
        self.name = name
        self.make = make
    }
}
