import Agent
import CoreTypes
import Foundation

/// The command line of CoatySoak.
struct SoakOptions: Sendable {
    /// A bad option, or a soak that could not run.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    var brokerURL = "mqtt://127.0.0.1:1883"
    /// How long the soak runs at its rate.
    var duration = Duration.seconds(600)
    /// The publication rate in events per second; `nil` measures the maximum first and uses half.
    var rate: Double?
    /// How long the maximum rate is measured.
    var measureDuration = Duration.seconds(10)
    /// How often resident memory is sampled (and progress printed).
    var sampleInterval = Duration.seconds(10)
    /// Where to write the Markdown figures.
    var markdownPath: String?

    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
        func value(_ option: String) throws -> String {
            guard let value = iterator.next() else { throw Failure(description: "\(option) needs a value") }
            return value
        }
        func seconds(_ option: String) throws -> Duration {
            let text = try value(option)
            guard let number = Double(text), number > 0 else {
                throw Failure(description: "\(option) must be a positive number of seconds, not '\(text)'")
            }
            return .milliseconds(Int64(number * 1000))
        }
        while let option = iterator.next() {
            switch option {
            case "--broker": brokerURL = try value(option)
            case "--duration": duration = try seconds(option)
            case "--measure": measureDuration = try seconds(option)
            case "--sample": sampleInterval = try seconds(option)
            case "--markdown": markdownPath = try value(option)
            case "--rate":
                let text = try value(option)
                guard let number = Double(text), number > 0 else {
                    throw Failure(description: "--rate must be a positive number of events per second, not '\(text)'")
                }
                rate = number
            default:
                throw Failure(
                    description: "unknown option '\(option)'; use --broker URL --duration S [--rate N | --measure S] "
                        + "[--sample S] [--markdown FILE]")
            }
        }
    }

    /// An agent on the soak's broker with QoS 1 and buffers large enough never to drop at the soak rate.
    static func agentConfiguration(_ name: String, options: SoakOptions) -> Agent.Configuration {
        var configuration = Agent.Configuration(identity: Identity(name: name))
        configuration.broker.url = options.brokerURL
        configuration.qos = .atLeastOnce
        configuration.namespace = "soak"
        return configuration
    }
}

/// Seconds as a `Double`.
extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
