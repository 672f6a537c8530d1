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
    var wireOrder: WireKeyOrder

    /// Creates a `LogHost`.
    public init(
        agentInfo: AgentInfo? = nil, pid: Double? = nil, hostname: String? = nil, userAgent: String? = nil,
        custom: JSONObject = [:]
    ) {
        self.agentInfo = agentInfo
        self.pid = pid
        self.hostname = hostname
        self.userAgent = userAgent
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension LogHost: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var agentInfo: AgentInfo?
        var pid: Double?
        var hostname: String?
        var userAgent: String?
        for (key, member) in object {
            switch key {
            case "agentInfo": agentInfo = try AgentInfo.read(member, key, context)
            case "pid": pid = try Wire.number(member, key, context)
            case "hostname": hostname = try Wire.string(member, key, context)
            case "userAgent": userAgent = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        self.agentInfo = agentInfo
        self.pid = pid
        self.hostname = hostname
        self.userAgent = userAgent
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 4)
        if let agentInfo { head.appendNew("agentInfo", .object(agentInfo.wireObject())) }
        if let pid { head.appendNew("pid", .double(pid)) }
        if let hostname { head.appendNew("hostname", .string(hostname)) }
        if let userAgent { head.appendNew("userAgent", .string(userAgent)) }
        return wireOrder.merge(head: head, custom: custom)
    }
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
    var wireOrder: WireKeyOrder

    /// Creates an `AgentInfo`.
    public init(
        packageInfo: AgentInfo.PackageInfo, buildInfo: AgentInfo.BuildInfo, configInfo: AgentInfo.ConfigInfo,
        custom: JSONObject = [:]
    ) {
        self.packageInfo = packageInfo
        self.buildInfo = buildInfo
        self.configInfo = configInfo
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentInfo: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var packageInfo: AgentInfo.PackageInfo?
        var buildInfo: AgentInfo.BuildInfo?
        var configInfo: AgentInfo.ConfigInfo?
        for (key, member) in object {
            switch key {
            case "packageInfo": packageInfo = try AgentInfo.PackageInfo.read(member, key, context)
            case "buildInfo": buildInfo = try AgentInfo.BuildInfo.read(member, key, context)
            case "configInfo": configInfo = try AgentInfo.ConfigInfo.read(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let packageInfo else { throw context.missing("packageInfo") }
        guard let buildInfo else { throw context.missing("buildInfo") }
        guard let configInfo else { throw context.missing("configInfo") }
        self.packageInfo = packageInfo
        self.buildInfo = buildInfo
        self.configInfo = configInfo
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 3)
        head.appendNew("packageInfo", .object(packageInfo.wireObject()))
        head.appendNew("buildInfo", .object(buildInfo.wireObject()))
        head.appendNew("configInfo", .object(configInfo.wireObject()))
        return wireOrder.merge(head: head, custom: custom)
    }
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
    var wireOrder: WireKeyOrder

    /// Creates an `AgentPackageInfo`.
    public init(name: String, version: String, custom: JSONObject = [:]) {
        self.name = name
        self.version = version
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentPackageInfo: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var name: String?
        var version: String?
        for (key, member) in object {
            switch key {
            case "name": name = try Wire.string(member, key, context)
            case "version": version = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let name else { throw context.missing("name") }
        guard let version else { throw context.missing("version") }
        self.name = name
        self.version = version
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 2)
        head.appendNew("name", .string(name))
        head.appendNew("version", .string(version))
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// How an agent was built (``AgentInfo/buildInfo``).
public struct AgentBuildInfo: Hashable, Sendable, Codable {
    /// The build date, as an ISO 8601 string.
    public var buildDate: String
    /// The build mode, conventionally `production`, `development`, `staging` or `testing`.
    public var buildMode: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an `AgentBuildInfo`.
    public init(buildDate: String, buildMode: String, custom: JSONObject = [:]) {
        self.buildDate = buildDate
        self.buildMode = buildMode
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentBuildInfo: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var buildDate: String?
        var buildMode: String?
        for (key, member) in object {
            switch key {
            case "buildDate": buildDate = try Wire.string(member, key, context)
            case "buildMode": buildMode = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let buildDate else { throw context.missing("buildDate") }
        guard let buildMode else { throw context.missing("buildMode") }
        self.buildDate = buildDate
        self.buildMode = buildMode
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 2)
        head.appendNew("buildDate", .string(buildDate))
        head.appendNew("buildMode", .string(buildMode))
        return wireOrder.merge(head: head, custom: custom)
    }
}

/// How an agent is configured (``AgentInfo/configInfo``).
public struct AgentConfigInfo: Hashable, Sendable, Codable {
    /// The host the agent's services run on (may be empty).
    public var serviceHost: String
    /// Members this structure does not declare, in wire order.
    public var custom: JSONObject
    var wireOrder: WireKeyOrder

    /// Creates an `AgentConfigInfo`.
    public init(serviceHost: String, custom: JSONObject = [:]) {
        self.serviceHost = serviceHost
        self.custom = custom
        self.wireOrder = .none
    }

    /// Decodes and validates the structure with coaty-js's rules; undeclared members go to ``custom``.
    ///
    /// - Throws: ``ObjectDecodingError`` naming the first missing or invalid field.
    public init(jsonObject: JSONObject) throws(ObjectDecodingError) {
        try self.init(wire: jsonObject, context: WireContext(objectType: nil, coreType: nil))
    }

    /// The wire form, in the decoded member order (or the declaration order for values made in Swift).
    public func jsonObject() -> JSONObject { wireObject() }
}

extension AgentConfigInfo: WireStructure {
    init(wire object: JSONObject, context: WireContext) throws(ObjectDecodingError) {
        var custom = JSONObject()
        var serviceHost: String?
        for (key, member) in object {
            switch key {
            case "serviceHost": serviceHost = try Wire.string(member, key, context)
            default: custom.appendNew(key, member)
            }
        }
        guard let serviceHost else { throw context.missing("serviceHost") }
        self.serviceHost = serviceHost
        self.custom = custom
        self.wireOrder = WireKeyOrder(source: object)
    }

    func wireObject() -> JSONObject {
        var head = JSONObject(capacity: 1)
        head.appendNew("serviceHost", .string(serviceHost))
        return wireOrder.merge(head: head, custom: custom)
    }
}
