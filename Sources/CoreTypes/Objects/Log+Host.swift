/// Where a ``Log`` entry comes from: the agent and its process or browser.
public struct LogHost: Hashable, Sendable, Codable {
    /// The agent's package, build and configuration information.
    public var agentInfo: AgentInfo?
    /// The process id (a JSON number).
    public var pid: Double?
    /// The host name.
    public var hostname: String?
    /// The browser's user agent.
    public var userAgent: String?
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension LogHost {
    /// Creates a `LogHost`.
    public init(
        agentInfo: AgentInfo? = nil, pid: Double? = nil, hostname: String? = nil, userAgent: String? = nil,
        custom: JSONObject = [:]
    ) {
        self.init(
            agentInfo: agentInfo, pid: pid, hostname: hostname, userAgent: userAgent, custom: custom, wireOrder: .none)
    }
}

extension LogHost: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<LogHost>([
        .optional("agentInfo", \.agentInfo),
        .optional("pid", \.pid),
        .optional("hostname", \.hostname),
        .optional("userAgent", \.userAgent),
    ])
    static let wireTemplate = LogHost()
}

/// Package, build and configuration information about an agent; all three parts are required.
public struct AgentInfo: Hashable, Sendable, Codable {
    /// The agent's package.
    public var packageInfo: AgentInfo.PackageInfo
    /// How the agent was built.
    public var buildInfo: AgentInfo.BuildInfo
    /// How the agent is configured.
    public var configInfo: AgentInfo.ConfigInfo
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentInfo {
    /// Creates an `AgentInfo`.
    public init(
        packageInfo: AgentInfo.PackageInfo, buildInfo: AgentInfo.BuildInfo, configInfo: AgentInfo.ConfigInfo,
        custom: JSONObject = [:]
    ) {
        self.init(
            packageInfo: packageInfo, buildInfo: buildInfo, configInfo: configInfo, custom: custom, wireOrder: .none)
    }
}

extension AgentInfo: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<AgentInfo>([
        .required("packageInfo", \.packageInfo),
        .required("buildInfo", \.buildInfo),
        .required("configInfo", \.configInfo),
    ])
    static let wireTemplate = AgentInfo(
        packageInfo: .wireTemplate, buildInfo: .wireTemplate, configInfo: .wireTemplate)
}

extension AgentInfo {
    /// The agent's package: its name and version, plus any other members.
    public typealias PackageInfo = AgentPackageInfo
    /// How the agent was built: date and mode, plus any other members.
    public typealias BuildInfo = AgentBuildInfo
    /// How the agent is configured: its service host, plus any other members.
    public typealias ConfigInfo = AgentConfigInfo
}

/// The package of an agent (``AgentInfo/packageInfo``).
public struct AgentPackageInfo: Hashable, Sendable, Codable {
    /// The package name.
    public var name: String
    /// The package version.
    public var version: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentPackageInfo {
    /// Creates an `AgentPackageInfo`.
    public init(name: String, version: String, custom: JSONObject = [:]) {
        self.init(name: name, version: version, custom: custom, wireOrder: .none)
    }
}

extension AgentPackageInfo: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<AgentPackageInfo>([.required("name", \.name), .required("version", \.version)])
    static let wireTemplate = AgentPackageInfo(name: "", version: "")
}

/// How an agent was built (``AgentInfo/buildInfo``).
public struct AgentBuildInfo: Hashable, Sendable, Codable {
    /// The build date, as an ISO 8601 string.
    public var buildDate: String
    /// The build mode, conventionally `production`, `development`, `staging` or `testing`.
    public var buildMode: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentBuildInfo {
    /// Creates an `AgentBuildInfo`.
    public init(buildDate: String, buildMode: String, custom: JSONObject = [:]) {
        self.init(buildDate: buildDate, buildMode: buildMode, custom: custom, wireOrder: .none)
    }
}

extension AgentBuildInfo: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<AgentBuildInfo>([
        .required("buildDate", \.buildDate),
        .required("buildMode", \.buildMode),
    ])
    static let wireTemplate = AgentBuildInfo(buildDate: "", buildMode: "")
}

/// How an agent is configured (``AgentInfo/configInfo``).
public struct AgentConfigInfo: Hashable, Sendable, Codable {
    /// The host the agent's services run on (may be empty).
    public var serviceHost: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder = WireKeyOrder.none

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentConfigInfo {
    /// Creates an `AgentConfigInfo`.
    public init(serviceHost: String, custom: JSONObject = [:]) {
        self.init(serviceHost: serviceHost, custom: custom, wireOrder: .none)
    }
}

extension AgentConfigInfo: WireStructure, WireDescribed {
    static let wireSchema = WireSchema<AgentConfigInfo>([.required("serviceHost", \.serviceHost)])
    static let wireTemplate = AgentConfigInfo(serviceHost: "")
}
