/// Return (`RTN`): one answer to a ``Call``: a result or an error, plus optional execution info.
///
/// A Return has exactly one of `result` and `error`. The result may be any JSON value, `null`
/// included (`{"result":null}` is a successful Return).
///
/// ```swift
/// let ok = Return(result: true, executionInfo: ["durationMs": 12])
/// let failed = Return(error: .invalidParameters)
/// ```
public struct Return: CoatyEvent {
    /// `.return`.
    public static let eventType = EventType.return

    /// The error of a failed call: a code and a message.
    ///
    /// By convention the code is an integer and the message a string, and the initializer
    /// ``init(code:message:)-(Int,_)`` builds that. coaty-js does not check their types, so an inbound
    /// error keeps whatever JSON values it carried.
    ///
    /// ```swift
    /// Return(error: Return.Failure(code: 4, message: "lamp is broken"))
    /// Return(error: .invalidParameters)   // {"error":{"code":-32602,"message":"Invalid params"}}
    /// ```
    public struct Failure: Sendable, Hashable {
        /// The error code; an integer by convention. Codes −32768…−32000 are reserved.
        public var code: JSONValue
        /// The error message; a string by convention.
        public var message: JSONValue

        /// An error with an integer code and a message.
        public init(code: Int, message: String) {
            self.code = .int(code)
            self.message = .string(message)
        }

        /// An error with any JSON code and message (as coaty-js allows).
        public init(code: JSONValue, message: JSONValue) {
            self.code = code
            self.message = message
        }

        /// The predefined error for invalid parameters: code `-32602`, message `"Invalid params"`.
        public static let invalidParameters = Failure(code: -32602, message: "Invalid params")

        /// The code as an integer, when it is one.
        public var integerCode: Int? { code.intValue }
        /// The message as a string, when it is one.
        public var text: String? { message.stringValue }

        var json: JSONValue { .object(["code": code, "message": message]) }
    }

    /// The outcome of a call.
    ///
    /// ```swift
    /// switch returned.outcome {
    /// case .result(let value): use(value)         // value may be .null
    /// case .error(let failure): report(failure)
    /// }
    /// ```
    public enum Outcome: Sendable, Hashable {
        /// The call succeeded with this result (any JSON value, `null` included).
        case result(JSONValue)
        /// The call failed.
        case error(Failure)
    }

    /// The result or the error.
    public var outcome: Outcome
    /// Information about the execution (any JSON value), if any.
    public var executionInfo: JSONValue?

    /// A successful Return with `result`.
    public init(result: JSONValue, executionInfo: JSONValue? = nil) {
        self.init(outcome: .result(result), executionInfo: executionInfo)
    }

    /// A failed Return with `error`.
    public init(error: Failure, executionInfo: JSONValue? = nil) {
        self.init(outcome: .error(error), executionInfo: executionInfo)
    }

    /// A failed Return with an integer code and a message.
    public init(errorCode: Int, message: String, executionInfo: JSONValue? = nil) {
        self.init(error: Failure(code: errorCode, message: message), executionInfo: executionInfo)
    }

    /// A Return with `outcome`.
    public init(outcome: Outcome, executionInfo: JSONValue? = nil) {
        self.outcome = outcome
        self.executionInfo = executionInfo
    }

    /// The result, when the call succeeded (`.null` for a `null` result).
    public var result: JSONValue? {
        if case .result(let value) = outcome { return value }
        return nil
    }

    /// The error, when the call failed.
    public var error: Failure? {
        if case .error(let failure) = outcome { return failure }
        return nil
    }

    /// Decodes an inbound Return payload.
    ///
    /// Exactly one of `result` (any value, `null` included) and `error` (an object with `code` and
    /// `message` present, of any type); `executionInfo` any value.
    ///
    /// - Throws: ``EventError`` saying which member is wrong.
    public init(json: JSONValue) throws(EventError) {
        let reader = try PayloadReader(json, Self.eventType)
        switch (reader["result"], reader["error"]) {
        case (let result?, nil):
            outcome = .result(result)
        case (nil, let error?):
            guard case .object(let members) = error else {
                throw reader.error(
                    .invalidMember, "error", "must be an object with code and message, found \(error.typeName)")
            }
            guard let code = members["code"] else {
                throw reader.error(.missingMember, "error.code", "a Return error carries a code")
            }
            guard let message = members["message"] else {
                throw reader.error(.missingMember, "error.message", "a Return error carries a message")
            }
            outcome = .error(Failure(code: code, message: message))
        case (.some, .some):
            throw reader.error(.conflictingMembers, "error", "a Return carries 'result' or 'error', not both")
        case (nil, nil):
            throw reader.error(.missingMember, "result", "a Return carries 'result' or 'error'")
        }
        executionInfo = reader["executionInfo"]
    }

    /// `{"result":…,"executionInfo":…}` or `{"error":{"code":…,"message":…},"executionInfo":…}`.
    public func json() throws(EventError) -> JSONValue {
        var writer = PayloadWriter(Self.eventType)
        switch outcome {
        case .result(let value): writer.set("result", value)
        case .error(let failure): writer.set("error", failure.json)
        }
        writer.set("executionInfo", executionInfo)
        return writer.json
    }
}
