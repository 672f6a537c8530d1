import Agent
import ArgumentParser
import CoreTypes
import Foundation
import Logging

/// The options every subcommand takes (design.md §5). Each one can also come from an
/// environment variable `COATY_<OPTION>` (`--ca-file` → `COATY_CA_FILE`); the command line wins.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: "The broker: mqtt://host:port or mqtts://host:port (default mqtt://127.0.0.1:1883). Env: COATY_BROKER.")
    var broker: String?

    @Option(help: "The Coaty namespace (default '-'). Env: COATY_NAMESPACE.")
    var namespace: String?

    @Flag(
        name: .customLong("cross-namespace"), help: "Also observe every other namespace. Env: COATY_CROSS_NAMESPACE=1.")
    var crossNamespace = false

    @Option(help: "The name of this agent's identity. Env: COATY_NAME.")
    var name: String?

    @Option(
        name: .customLong("identity-id"),
        help: "The object id (a UUID) of this agent's identity. Env: COATY_IDENTITY_ID.")
    var identityID: String?

    @Option(help: "The user name for the broker. Env: COATY_USERNAME.")
    var username: String?

    @Option(help: "The password for the broker; prefer COATY_PASSWORD, the command line is visible to others.")
    var password: String?

    @Option(
        name: .customLong("ca-file"),
        help: "PEM file of the certificate authorities to trust (mqtts). Env: COATY_CA_FILE.")
    var caFile: String?

    @Option(name: .customLong("cert-file"), help: "PEM client certificate (mqtts). Env: COATY_CERT_FILE.")
    var certFile: String?

    @Option(name: .customLong("key-file"), help: "PEM private key of --cert-file. Env: COATY_KEY_FILE.")
    var keyFile: String?

    @Option(
        name: .customLong("log-level"),
        help: "trace, debug, info, warning or error (default info). Env: COATY_LOG_LEVEL.")
    var logLevel: String?

    @Option(help: "text or json: JSON lines (default: text on a terminal, json otherwise). Env: COATY_OUTPUT.")
    var output: String?

    /// The global options that take a value (all but `--cross-namespace`).
    static let valueOptions: Set<String> = [
        "--broker", "--namespace", "--name", "--identity-id", "--username", "--password", "--ca-file", "--cert-file",
        "--key-file", "--log-level", "--output",
    ]

    /// Moves global options written before the subcommand (`agent-runner --broker URL monitor`)
    /// to the end, where the subcommand parses them.
    static func movingLeadingOptions(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.prefix { $0 != "=" })
            if argument == "--cross-namespace" || (valueOptions.contains(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if valueOptions.contains(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        return Array(arguments[index...]) + leading
    }

    /// The options with the environment and the defaults applied, checked.
    ///
    /// - Throws: ``RunnerError`` (exit 2) naming the option (or variable) and what is wrong.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Settings {
        func value(_ option: String?, _ variable: String) -> (String, String)? {
            if let option { return (option, "--" + Settings.optionName(variable)) }
            if let text = environment[variable], !text.isEmpty { return (text, variable) }
            return nil
        }
        var settings = Settings()
        if let (url, source) = value(broker, "COATY_BROKER") {
            do {
                _ = try BrokerURL(url)
            } catch let error as MosquittoError {
                throw RunnerError.usage(source, "\(error.detail); write it as mqtt://host:port or mqtts://host:port")
            }
            settings.broker = url
        }
        if let (namespace, source) = value(namespace, "COATY_NAMESPACE") {
            guard CoatyTopic.isValidEventFilter(namespace) else {
                throw RunnerError.usage(
                    source, "namespace '\(namespace)' must be non-empty without '/', '+', '#' or NUL")
            }
            settings.namespace = namespace
        }
        if crossNamespace {
            settings.isCrossNamespacing = true
        } else if let text = environment["COATY_CROSS_NAMESPACE"], !text.isEmpty {
            switch text.lowercased() {
            case "1", "true", "yes", "on": settings.isCrossNamespacing = true
            case "0", "false", "no", "off": settings.isCrossNamespacing = false
            default: throw RunnerError.usage("COATY_CROSS_NAMESPACE", "'\(text)' is not 1/true/yes or 0/false/no")
            }
        }
        if let (name, _) = value(name, "COATY_NAME") { settings.name = name }
        if let (id, source) = value(identityID, "COATY_IDENTITY_ID") {
            guard let uuid = UUID(uuidString: id) else {
                throw RunnerError.usage(source, "'\(id)' is not a UUID like 3f2504e0-4f89-41d3-9a0c-0305e82c3301")
            }
            settings.identityID = uuid.uuidString.lowercased()
        }
        settings.username = value(username, "COATY_USERNAME")?.0
        if let (password, source) = value(password, "COATY_PASSWORD") {
            guard settings.username != nil else {
                throw RunnerError.usage(source, "a password needs a user name (--username or COATY_USERNAME)")
            }
            settings.password = password
        }
        settings.caFile = try readableFile(value(caFile, "COATY_CA_FILE"))
        settings.certFile = try readableFile(value(certFile, "COATY_CERT_FILE"))
        settings.keyFile = try readableFile(value(keyFile, "COATY_KEY_FILE"))
        if (settings.certFile == nil) != (settings.keyFile == nil) {
            throw RunnerError.usage(
                settings.certFile == nil ? "--key-file" : "--cert-file",
                "a client certificate needs both --cert-file and --key-file")
        }
        if let (level, source) = value(logLevel, "COATY_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level.lowercased()), parsed != .notice, parsed != .critical else {
                throw RunnerError.usage(source, "'\(level)' is not one of trace, debug, info, warning, error")
            }
            settings.logLevel = parsed
        }
        if let (mode, source) = value(output, "COATY_OUTPUT") {
            guard let parsed = OutputMode(rawValue: mode.lowercased()) else {
                throw RunnerError.usage(source, "'\(mode)' is not text or json")
            }
            settings.outputMode = parsed
        }
        return settings
    }

    private func readableFile(_ value: (String, String)?) throws -> String? {
        guard let (path, source) = value else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw RunnerError.usage(source, "cannot read '\(path)'")
        }
        return path
    }
}

/// The global settings from options and environment; `nil` where neither gives a value (then a
/// configuration file or the default applies).
struct Settings: Sendable {
    static let defaultBroker = "mqtt://127.0.0.1:1883"

    var broker: String?
    var namespace: String?
    var isCrossNamespacing: Bool?
    var name: String?
    var identityID: String?
    var username: String?
    var password: String?
    var caFile: String?
    var certFile: String?
    var keyFile: String?
    var logLevel: Logger.Level?
    /// `nil`: text on a terminal, JSON lines otherwise.
    var outputMode: OutputMode?

    /// The broker URL to use.
    var brokerURL: String { broker ?? Self.defaultBroker }

    /// These settings where they are set, else `file`'s: the command line and environment win.
    func overriding(_ file: RunConfiguration) -> Settings {
        var merged = self
        merged.broker = broker ?? file.broker
        merged.namespace = namespace ?? file.namespace
        merged.isCrossNamespacing = isCrossNamespacing ?? file.isCrossNamespacing
        merged.name = name ?? file.name
        merged.identityID = identityID ?? file.identityID
        if username == nil {
            merged.username = file.username
            merged.password = file.password
        }
        merged.caFile = caFile ?? file.caFile
        merged.certFile = certFile ?? file.certFile
        merged.keyFile = keyFile ?? file.keyFile
        return merged
    }

    /// `COATY_CA_FILE` → `ca-file`.
    static func optionName(_ variable: String) -> String {
        variable.dropFirst("COATY_".count).lowercased().replacing("_", with: "-")
    }

    /// The agent configuration these settings describe.
    ///
    /// - Parameters:
    ///   - defaultName: the identity name when neither `--name` nor `COATY_NAME` gives one.
    ///   - reconnect: how the agent retries; one-shot commands give up at once.
    func agentConfiguration(defaultName: String, reconnect: ReconnectPolicy) -> Agent.Configuration {
        var identity = Identity(name: name ?? defaultName)
        if let identityID { identity.objectID = identityID }
        var configuration = Agent.Configuration(
            identity: identity, namespace: namespace ?? "-", isCrossNamespacing: isCrossNamespacing ?? false)
        configuration.broker.url = brokerURL
        configuration.broker.username = username
        configuration.broker.password = password
        configuration.broker.tls = Agent.TLS(caFile: caFile, certificateFile: certFile, keyFile: keyFile)
        configuration.reconnect = reconnect
        return configuration
    }
}
