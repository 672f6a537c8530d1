import BenchmarkFixtures
import CoreTypes
import Foundation
import Logging

/// The same members as a plain Codable struct, for JSONEncoder (named as on the wire: `objectId`, not `objectID`).
struct PlainLight: Codable {
    var objectId: String
    var objectType: String
    var coreType: String
    var name: String
    var externalId: String?
    var parentObjectId: String?
    var isOn: Bool
    var luminosity: Double
    var color: String
    var floor: Int
    var tags: [String]
    var installedAt: Double
}

enum Fixtures {
    static let lightText = LightFixture.text
    static let sensorText = lightText.replacingOccurrences(of: "com.example.Light", with: "com.example.Sensor")
    static let lightBytes = Array(lightText.utf8)
    static let sensorBytes = Array(sensorText.utf8)

    static let codableLightBytes = LightFixture.codableBytes

    static func registry() -> ObjectTypeRegistry { LightFixture.registryWithCodableLight() }
    static func light() -> Light { LightFixture.light() }
    static func codableLight() -> CodableLight { LightFixture.codableLight() }

    /// A logger that drops everything: the benchmarks print their own results.
    static let quietLogger = Logger(label: "benchmark") { _ in SwiftLogNoOpLogHandler() }
}

/// Sorted samples and their order statistics.
struct Samples {
    private(set) var sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var isEmpty: Bool { sorted.isEmpty }
    var median: Double { quantile(0.5) }
    var mean: Double { sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count) }

    /// The value below which `fraction` of the samples lie (nearest rank).
    func quantile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.down))))
        return sorted[index]
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var microseconds: Double { seconds * 1e6 }
}
