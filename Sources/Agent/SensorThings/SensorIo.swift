public import CoreTypes
import Synchronization

/// The hardware side of a `Sensor`: how a ``SensorSourceController`` reads its value (and how an
/// application writes one), as coaty-js's `ISensorIo`.
///
/// Implement it for your hardware (an analog pin, a bus, a file); ``MockSensorIo`` stands in for
/// hardware in tests and demos. The controller calls ``read()`` from its own tasks.
public protocol SensorIo: Sendable {
    /// Reads the sensor's current value.
    ///
    /// - Throws: whatever the hardware access throws; the controller then publishes no observation.
    func read() async throws -> JSONValue

    /// Writes a value to the sensor (for sensors that take one; others may ignore it).
    func write(_ value: JSONValue) async throws
}

/// A ``SensorIo`` without hardware: it holds one value, `0` at first, which ``write(_:)``
/// replaces and ``read()`` returns (coaty-js's `MockSensorIo`).
///
/// ```swift
/// let io = MockSensorIo()
/// try await io.write(21.5)
/// try await io.read()   // 21.5
/// ```
public final class MockSensorIo: SensorIo {
    private let value: Mutex<JSONValue>

    /// A mock sensor holding `value`.
    public init(value: JSONValue = 0) {
        self.value = Mutex(value)
    }

    /// The value held.
    public func read() async throws -> JSONValue {
        value.withLock { $0 }
    }

    /// Replaces the value held.
    public func write(_ value: JSONValue) async throws {
        self.value.withLock { $0 = value }
    }
}
