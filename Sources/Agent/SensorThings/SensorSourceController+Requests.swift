import CoreTypes

extension SensorSourceController {
    /// Resolves a Discover for a registered sensor's object id with that sensor, and a Discover by
    /// object types that include `coaty.sensorThings.Sensor` with every registered sensor (one
    /// Resolve each), as coaty-js does; others are not answered.
    static func resolve(_ request: IncomingRequest<Discover>, from sensors: [Sensor]) throws {
        let discover = request.event
        if discover.isDiscoveringObjectID {
            for sensor in sensors where sensor.objectID == discover.objectID {
                try request.respond(Resolve(object: sensor))
            }
        } else if discover.isDiscoveringTypes, discover.objectTypes?.contains(Sensor.objectType) == true {
            for sensor in sensors { try request.respond(Resolve(object: sensor)) }
        }
    }

    /// Answers a Query by object types that include `coaty.sensorThings.Sensor` with the sensors
    /// its filter's conditions match, unless none do (coaty-js applies no ordering or paging here).
    static func retrieve(_ request: IncomingRequest<Query>, from sensors: [Sensor]) throws {
        guard request.event.objectTypes?.contains(Sensor.objectType) == true else { return }
        let filter = request.event.filter
        let matching = try sensors.filter { sensor in
            guard filter.conditions != nil else { return true }
            return try ObjectMatcher.matches(sensor.jsonObject(), filter: filter)
        }
        guard !matching.isEmpty else { return }
        try request.respond(Retrieve(objects: matching))
    }
}
