extension ControllerComponent {
    /// An ``ObjectLifecycleController`` (options: ``ObjectLifecycleController/Options``).
    public static func objectLifecycle(name: String = "ObjectLifecycleController") -> ControllerComponent {
        ControllerComponent(name: name) { context in
            try ObjectLifecycleController(
                agent: context.agent, options: context.options(as: ObjectLifecycleController.Options.self),
                logger: context.logger)
        }
    }

    /// An ``ObjectCacheController`` (options: ``ObjectCacheController/Options``).
    public static func objectCache(name: String = "ObjectCacheController") -> ControllerComponent {
        ControllerComponent(name: name) { context in
            try ObjectCacheController(
                agent: context.agent, options: context.options(as: ObjectCacheController.Options.self),
                logger: context.logger)
        }
    }

    /// A ``ConnectionStateController`` (no options).
    public static func connectionState(name: String = "ConnectionStateController") -> ControllerComponent {
        ControllerComponent(name: name) { ConnectionStateController(context: $0) }
    }

    /// The type names of the built-in controllers, for configuration files that name controllers.
    public static let builtInNames = [
        "ObjectLifecycleController", "ObjectCacheController", "ConnectionStateController", "BasicIoRouter",
        "RuleBasedIoRouter", "IoSourceController", "IoActorController",
    ]

    /// The built-in controller with this type name (one of ``builtInNames``), registered under
    /// `name` (by default the type name); `nil` for any other type name.
    public static func builtIn(_ typeName: String, name: String? = nil) -> ControllerComponent? {
        switch typeName {
        case "ObjectLifecycleController": return .objectLifecycle(name: name ?? typeName)
        case "ObjectCacheController": return .objectCache(name: name ?? typeName)
        case "ConnectionStateController": return .connectionState(name: name ?? typeName)
        case "BasicIoRouter": return .ioRouter(name: name ?? typeName)
        // Rules are code (conditions are closures): from a configuration the router has none.
        case "RuleBasedIoRouter": return .ioRouter(name: name ?? typeName, rules: [])
        case "IoSourceController": return .ioSources(name: name ?? typeName)
        case "IoActorController": return .ioActors(name: name ?? typeName)
        default: return nil
        }
    }
}
