import CoreTypes
import Testing

@testable import Agent

/// An application type for the container tests.
struct Lamp: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.test.Lamp"
    var objectID = ObjectID.make()
    var name: String
    var isOn: Bool
}

/// Another type claiming the same object type as ``Lamp``.
struct OtherLamp: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "com.example.test.Lamp"
    var objectID = ObjectID.make()
    var name: String
}

/// A type using the object type prefix that Coaty reserves.
struct ReservedLamp: CoatyObject, Hashable {
    static let coreType = CoreType.coatyObject
    static let objectType = "coaty.Lamp"
    var objectID = ObjectID.make()
    var name: String
}

/// Options a test controller reads.
struct GreeterOptions: Codable, Sendable, Equatable {
    var greeting: String
    var repeats: Int
}

/// A controller that keeps what its context gave it.
struct GreeterController: Controller {
    let name: String
    let options: GreeterOptions

    init(context: ControllerContext) throws {
        name = context.name
        options = try context.options(as: GreeterOptions.self)
    }
}

/// A controller with no behaviour.
struct PlainController: Controller {}

struct CreationFailure: Error, CustomStringConvertible {
    var description: String { "the device is not attached" }
}

@Suite struct ContainerBootstrapTests {
    func configuration(_ options: [String: ControllerOptions] = [:]) -> Container.Configuration {
        Container.Configuration(
            agent: Agent.Configuration(identity: Identity(name: "Test")), controllerOptions: options)
    }

    @Test func registersTheObjectTypesAndFreezesTheRegistry() throws {
        let container = try Container(components: Components(objectTypes: [Lamp.self]), configuration: configuration())
        #expect(container.registry.isFrozen)
        #expect(container.registry.registeredObjectTypes == [Lamp.objectType])
        #expect(container.agent.registry.registeredType(for: Lamp.objectType) == Lamp.self)
        let decoded = try container.registry.decodeObject(try Lamp(name: "l", isOn: true).jsonObject())
        #expect(decoded is Lamp)
    }

    @Test func aDuplicateObjectTypeIsABootstrapError() {
        let error = #expect(throws: ContainerError.self) {
            try Container(
                components: Components(objectTypes: [Lamp.self, OtherLamp.self]), configuration: configuration())
        }
        #expect(error?.code == .duplicateObjectType)
        #expect(error?.detail.contains("com.example.test.Lamp") == true)
    }

    @Test func aReservedObjectTypeIsABootstrapError() {
        let error = #expect(throws: ContainerError.self) {
            try Container(components: Components(objectTypes: [ReservedLamp.self]), configuration: configuration())
        }
        #expect(error?.code == .invalidObjectType)
        #expect(error?.detail.contains("coaty.") == true)
    }

    @Test func aDuplicateFragmentFieldIsABootstrapError() {
        let fragments = [Components.Fragment(GreeterOptions.self, field: "greeter"), .init(Int.self, field: "greeter")]
        let error = #expect(throws: ContainerError.self) {
            try Container(components: Components(fragments: fragments), configuration: configuration())
        }
        #expect(error?.code == .duplicateObjectType)
    }

    @Test func twoControllersWithOneNameAreABootstrapError() {
        let components = Components(controllers: [.objectCache(name: "Cache"), .objectLifecycle(name: "Cache")])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration())
        }
        #expect(error?.code == .duplicateController)
        #expect(error?.controller == "Cache")
    }

    @Test func anEmptyControllerNameIsABootstrapError() {
        let components = Components(controllers: [ControllerComponent(name: "") { _ in PlainController() }])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration())
        }
        #expect(error?.code == .invalidControllerName)
    }

    @Test func optionsForAControllerThatDoesNotExistAreABootstrapError() {
        let components = Components(controllers: [.objectCache(name: "Cache")])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration(["Cahce": ["timeToLive": 3]]))
        }
        #expect(error?.code == .unknownController)
        #expect(error?.controller == "Cahce")
        #expect(error?.detail.contains("controllers: Cache") == true)
    }

    @Test(
        arguments: [
            (["policy": "sometimes"], "'policy'"),
            (["timeToLive": "long"], "'timeToLive'"),
            (["timeToLive": -1], "positive"),
            (["discoverTimeout": 0], "positive"),
        ] as [(JSONObject, String)])
    func invalidJSONOptionsNameTheControllerAndTheMember(options: JSONObject, mentioned: String) {
        let components = Components(controllers: [.objectCache(name: "Cache")])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration(["Cache": ControllerOptions(options)]))
        }
        #expect(error?.code == .invalidOptions)
        #expect(error?.controller == "Cache")
        #expect(error?.detail.contains("controller 'Cache'") == true)
        #expect(error?.detail.contains(mentioned) == true, "\(error?.detail ?? "")")
    }

    @Test func aMissingRequiredOptionIsNamed() {
        let components = Components(controllers: [
            ControllerComponent(name: "Greeter") { try GreeterController(context: $0) }
        ])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration(["Greeter": ["greeting": "hi"]]))
        }
        #expect(error?.code == .invalidOptions)
        #expect(error?.detail.contains("missing member 'repeats'") == true, "\(error?.detail ?? "")")
    }

    @Test func typedOptionsOfAnotherTypeAreABootstrapError() {
        let components = Components(controllers: [.objectCache(name: "Cache")])
        let options = ControllerOptions.typed(ObjectLifecycleController.Options())
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration(["Cache": options]))
        }
        #expect(error?.code == .invalidOptions)
        #expect(error?.detail.contains("ObjectCacheController.Options") == true)
    }

    @Test func controllersGetTheirJSONOrTypedOptions() throws {
        let components = Components(controllers: [
            ControllerComponent(name: "A") { try GreeterController(context: $0) },
            ControllerComponent(name: "B") { try GreeterController(context: $0) },
        ])
        let container = try Container(
            components: components,
            configuration: configuration([
                "A": ["greeting": "hello", "repeats": 2],
                "B": .typed(GreeterOptions(greeting: "hi", repeats: 1)),
            ]))
        #expect(
            container.controller(GreeterController.self, named: "A")?.options
                == GreeterOptions(greeting: "hello", repeats: 2))
        #expect(
            container.controller(GreeterController.self, named: "B")?.options
                == GreeterOptions(greeting: "hi", repeats: 1))
        #expect(container.controller(GreeterController.self)?.name == "A")
    }

    @Test func builtInOptionsDecodeFromJSON() throws {
        let components = Components(controllers: [.objectCache(), .objectLifecycle()])
        let container = try Container(
            components: components,
            configuration: configuration([
                "ObjectCacheController": ["timeToLive": 1.5, "policy": "networkFirst", "discoverTimeout": 2],
                "ObjectLifecycleController": ["discoverTimeout": 0.25],
            ]))
        let cache = try #require(container.controller(ObjectCacheController.self))
        #expect(cache.options.timeToLive == .milliseconds(1500))
        #expect(cache.options.policy == .networkFirst)
        #expect(cache.options.discoverTimeout == .seconds(2))
        let lifecycle = try #require(container.controller(ObjectLifecycleController.self))
        #expect(lifecycle.options.discoverTimeout == .milliseconds(250))
    }

    @Test func builtInControllersWithoutOptionsUseTheDefaults() throws {
        let container = try Container(
            components: Components(controllers: [.objectCache()]), configuration: configuration())
        let cache = try #require(container.controller(ObjectCacheController.self))
        #expect(cache.options.timeToLive == nil)
        #expect(cache.options.policy == .localFirst)
    }

    @Test func aControllerThatCannotBeCreatedIsNamed() {
        let components = Components(controllers: [ControllerComponent(name: "Device") { _ in throw CreationFailure() }])
        let error = #expect(throws: ContainerError.self) {
            try Container(components: components, configuration: configuration())
        }
        #expect(error?.code == .controllerFailed)
        #expect(error?.controller == "Device")
        #expect(error?.detail.contains("the device is not attached") == true)
    }

    @Test func anUnusableAgentConfigurationIsABootstrapError() {
        var configuration = configuration()
        configuration.namespace = "a/b"
        let error = #expect(throws: ContainerError.self) {
            try Container(components: Components(), configuration: configuration)
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.detail.contains("a/b") == true)
    }

    @Test func controllersKeepTheOrderOfTheComponents() throws {
        let container = try Container(
            components: Components(controllers: [
                .connectionState(), .objectCache(), .objectLifecycle(name: "Lifecycle"),
            ]),
            configuration: configuration())
        #expect(container.controllerNames == ["ConnectionStateController", "ObjectCacheController", "Lifecycle"])
        #expect(container.controller(named: "Lifecycle") is ObjectLifecycleController)
        #expect(container.controller(named: "Missing") == nil)
        #expect(container.controller(ObjectCacheController.self, named: "Lifecycle") == nil)
    }

    @Test(arguments: ControllerComponent.builtInNames)
    func builtInControllersAreFoundByTypeName(typeName: String) throws {
        let component = try #require(ControllerComponent.builtIn(typeName, name: "X"))
        #expect(component.name == "X")
        // Both IO routers are IoRouter (coaty-js's BasicIoRouter: the default rule; RuleBasedIoRouter: none
        // from a configuration); they need an IO context.
        let isRouter = typeName.hasSuffix("IoRouter")
        let options: [String: ControllerOptions] = isRouter ? ["X": ["ioContext": ["name": "kitchen"]]] : [:]
        let container = try Container(
            components: Components(controllers: [component]), configuration: configuration(options))
        let controller = try #require(container.controller(named: "X"))
        #expect("\(type(of: controller))" == (isRouter ? "IoRouter" : typeName))
    }

    @Test func anUnknownBuiltInTypeNameIsNil() {
        #expect(ControllerComponent.builtIn("LightController") == nil)
    }

    @Test func theConfigurationForwardsTheAgentSettings() {
        var configuration = Container.Configuration()
        configuration.identity = Identity(name: "Forwarded")
        configuration.namespace = "ns"
        configuration.broker.url = "mqtt://example.invalid:1884"
        #expect(configuration.agent.identity.name == "Forwarded")
        #expect(configuration.agent.namespace == "ns")
        #expect(configuration.agent.broker.url == "mqtt://example.invalid:1884")
    }
}
