/// Call (`CLL`): asks the observers of an operation to execute it; answered by ``Return``.
///
/// The operation name is the topic's event filter (`CLL:<operation>`). Parameters are by
/// position (a JSON array) or by name (a JSON object). An optional context filter limits which
/// callees execute the call; see ``isDelivered(toObserverWithContext:)``.
///
/// ```swift
/// let call = Call(operation: "com.example.lights.switch", parameters: .named(["state": "on"]),
///                 filter: try ContextFilter(json: ["conditions": ["floor", [7, 1]]]))
/// let plan = try call.requestPlan(in: scope, makeCorrelationID: ObjectID.make)
/// ```
public struct Call: RequestEvent {
    /// `.call`.
    public static let eventType = EventType.call

    /// The parameters of a Call: by position or by name.
    ///
    /// ```swift
    /// Call(operation: "add", parameters: .positional([1, 2]))          // {"parameters":[1,2]}
    /// Call(operation: "switch", parameters: .named(["state": "on"]))   // {"parameters":{"state":"on"}}
    /// ```
    public enum Parameters: Sendable, Hashable {
        /// Parameters by position, sent as a JSON array.
        case positional([JSONValue])
        /// Parameters by name, sent as a JSON object.
        case named(JSONObject)

        /// The parameters as the JSON value on the wire.
        public var json: JSONValue {
            switch self {
            case .positional(let values): return .array(values)
            case .named(let members): return .object(members)
            }
        }
    }

    /// The operation name (the topic's event filter).
    public var operation: String
    /// The parameters, if any.
    public var parameters: Parameters?
    /// The context filter, if any.
    public var filter: ContextFilter?

    /// Calls `operation` with optional parameters and context filter.
    public init(operation: String, parameters: Parameters? = nil, filter: ContextFilter? = nil) {
        self.operation = operation
        self.parameters = parameters
        self.filter = filter
    }

    /// The parameter at `index`, when the parameters are positional and that long.
    public func parameter(at index: Int) -> JSONValue? {
        guard case .positional(let values) = parameters, values.indices.contains(index) else { return nil }
        return values[index]
    }

    /// The parameter named `name`, when the parameters are named and include it.
    public func parameter(named name: String) -> JSONValue? {
        guard case .named(let members) = parameters else { return nil }
        return members[name]
    }

    /// Decodes an inbound Call payload for `operation`.
    ///
    /// `parameters` must be absent, an array or an object (`null` and primitives are invalid);
    /// `filter` absent or a valid context filter; the operation a valid event filter.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(operation: String, json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        switch reader["parameters"] {
        case nil: parameters = nil
        case .array(let values)?: parameters = .positional(values)
        case .object(let members)?: parameters = .named(members)
        case let value?:
            throw reader.error(.invalidMember, "parameters", "must be an array or an object, found \(value.typeName)")
        }
        if let filterJSON = reader["filter"] {
            do {
                filter = try ContextFilter(json: filterJSON)
            } catch {
                throw reader.error(.invalidMember, "filter", "\(error)")
            }
        } else {
            filter = nil
        }
        self.operation = operation
        try Self.checkOperation(operation)
    }

    /// `{"parameters":…,"filter":…}`; a Call without either is `{}`.
    ///
    /// - Throws: ``EventError`` when the operation name is not valid.
    public func json() throws(EventError) -> JSONValue {
        try Self.checkOperation(operation)
        var writer = PayloadWriter(Self.eventType)
        writer.set("parameters", parameters?.json)
        writer.set("filter", filter?.json)
        return writer.json
    }

    /// Whether an observer of this operation receives this Call, given the observer's context.
    ///
    /// | Call has a filter | Observer has a context | Delivered |
    /// | --- | --- | --- |
    /// | no | no | yes |
    /// | no | yes | no |
    /// | yes | no | yes |
    /// | yes | yes | if the context matches the filter |
    ///
    /// - Parameter context: the observer's context object, `nil` for an observer without one.
    /// - Throws: when evaluating the filter throws (for example `In` with an operand that is not
    ///   an array); coaty-js then ends that observer's subscription.
    public func isDelivered(toObserverWithContext context: (any CoatyObject)?) throws -> Bool {
        try ObjectMatcher.callMatches(context: context.map { .object(try $0.jsonObject()) }, filter: filter)
    }

    /// Every Return fits a Call; coaty-js checks nothing beyond the payload.
    public func check(_ response: Return) throws(EventError) {}

    /// Decodes a Return payload.
    public func decodeResponse(_ json: JSONValue, registry: ObjectTypeRegistry) throws(EventError) -> Return {
        try Return(json: json)
    }

    /// One exchange: `coaty/3/<ns>/CLL:<operation>/<identity>/<id>`, responses on `…/RTN/+/<id>`.
    package func requestPlan(
        in scope: AgentScope, makeCorrelationID: () -> String
    ) throws(EventError) -> RequestPlan {
        let payload = try payload()
        return .single(
            Self.eventType, filter: operation, payload: payload, responseType: Return.eventType, in: scope,
            makeCorrelationID: makeCorrelationID)
    }

    static func checkOperation(_ operation: String) throws(EventError) {
        guard CoatyTopic.isValidEventFilter(operation) else {
            throw EventError(
                code: .invalidEventFilter, eventType: eventType, field: "operation",
                detail: "operation '\(operation)' must be non-empty and contain no '/', '+', '#' or U+0000")
        }
    }
}

extension Call: PlannedRequest {}
