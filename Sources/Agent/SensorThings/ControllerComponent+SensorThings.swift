public import CoreTypes

extension ControllerComponent {
    /// A ``SensorSourceController`` registering `sensors` when it starts (options:
    /// ``SensorSourceController/Options``); `clock` drives periodic publication.
    public static func sensorSource(
        name: String = "SensorSourceController", sensors: [SensorSourceController.Definition] = [],
        clock: some Clock<Duration> = ContinuousClock()
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            SensorSourceController(
                agent: context.agent, sensors: sensors,
                options: try context.options(as: SensorSourceController.Options.self), clock: clock,
                logger: context.logger)
        }
    }

    /// A ``SensorObserverController`` (no options).
    public static func sensorObserver(name: String = "SensorObserverController") -> ControllerComponent {
        ControllerComponent(name: name) { SensorObserverController(agent: $0.agent, logger: $0.logger) }
    }

    /// A ``ThingObserverController`` (no options).
    public static func thingObserver(name: String = "ThingObserverController") -> ControllerComponent {
        ControllerComponent(name: name) { ThingObserverController(agent: $0.agent, logger: $0.logger) }
    }

    /// A ``ThingSensorObservationObserverController`` (options:
    /// ``ThingSensorObservationObserverController/Options``) with its thing and sensor filters.
    public static func thingSensorObservationObserver(
        name: String = "ThingSensorObservationObserverController",
        thingFilter: @escaping @Sendable (Thing) -> Bool = { _ in true },
        sensorFilter: @escaping @Sendable (Sensor, Thing) -> Bool = { _, _ in true }
    ) -> ControllerComponent {
        ControllerComponent(name: name) { context in
            ThingSensorObservationObserverController(
                agent: context.agent, options: try context.options(as: ThingSensorObservationObserverController.Options.self),
                thingFilter: thingFilter, sensorFilter: sensorFilter, logger: context.logger)
        }
    }
}
