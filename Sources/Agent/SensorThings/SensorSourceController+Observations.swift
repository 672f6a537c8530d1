public import CoreTypes
import Logging

extension SensorSourceController {
    /// Reads the sensor and publishes an `Observation` of its value, on its channel (Channel event
    /// `CHN:<channelID>`) or as an Advertise event (`ADV::coaty.sensorThings.Observation`): coaty-js's
    /// `publishChanneledObservation` and `publishAdvertisedObservation`.
    ///
    /// - Returns: the observation published.
    /// - Throws: ``AgentError`` with code `AgentError.Code.invalidEvent` when the sensor is not
    ///   registered or the observation is invalid (a negative `validTime`); what ``SensorIo/read()`` throws.
    @discardableResult
    public func publishObservation(
        of sensorID: String, as delivery: Delivery, resultQuality: [String]? = nil, validTime: EpochInterval? = nil,
        parameters: JSONObject? = nil, featureOfInterestID: String? = nil
    ) async throws -> Observation {
        guard let definition = definition(sensorID) else { throw Self.notRegistered(sensorID) }
        let value = try await definition.io.read()
        valueRead(value, for: sensorID)
        // coaty-js's createObservation: one time for both, the name from the sensor's.
        let now = WallClock.millisecondsSinceEpoch()
        let sensor = definition.sensor
        let observation = Observation(
            name: "Observation of " + sensor.name, phenomenonTime: now, result: value, resultTime: now,
            resultQuality: resultQuality, validTime: validTime, parameters: parameters,
            featureOfInterestID: featureOfInterestID, parentObjectID: sensor.objectID)
        switch delivery {
        case .channel: try agent.publish(Channel(id: channelID(sensor), object: observation))
        case .advertise: try agent.advertise(observation)
        }
        return observation
    }

    /// Publishes an observation of the sensor every `interval` on the controller's clock, until cancelled.
    func publishPeriodically(_ sensorID: String, as delivery: Delivery, every interval: Duration) async {
        await repeating(interval) {
            do {
                try await publishObservation(of: sensorID, as: delivery)
            } catch {
                logger.debug("Observation not published", metadata: ["coaty.sensor": "\(sensorID)", "error": "\(error)"])
            }
        }
    }

    /// Runs `body` at every multiple of `interval` from now on `clock` (late runs do not shift the
    /// later ones, as JavaScript's `setInterval`), until the task is cancelled.
    static func repeatEvery<C: Clock<Duration>>(
        _ interval: Duration, on clock: C, _ body: () async -> Void
    ) async {
        var next = clock.now.advanced(by: interval)
        while true {
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
            await body()
            next = next.advanced(by: interval)
        }
    }
}
