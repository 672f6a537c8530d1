// Every error code of CoreTypes, by error type (see ErrorCode).

// MARK: - EventError

extension EventError.Code {
    /// The payload bytes are not a JSON text (coaty-js: `JSON.parse` threw, the message is dropped).
    public static var notJSON: Self { Self("notJSON") }
    /// The payload is JSON but not a JSON object.
    public static var notAnObject: Self { Self("notAnObject") }
    /// A required member is missing.
    public static var missingMember: Self { Self("missingMember") }
    /// A member has the wrong type or value (including `null` where a value is optional).
    public static var invalidMember: Self { Self("invalidMember") }
    /// Members that exclude each other are both present, or none of a required set is.
    public static var conflictingMembers: Self { Self("conflictingMembers") }
    /// A Coaty object inside the event is not a valid object of its core type.
    public static var invalidObject: Self { Self("invalidObject") }
    /// An object type, channel id, operation or IO context name that cannot be a topic level.
    public static var invalidEventFilter: Self { Self("invalidEventFilter") }
    /// A response does not fit its request (wrong object id, core type, object type, external id).
    public static var responseMismatch: Self { Self("responseMismatch") }
    /// A Raw topic or IO route that must not be published or subscribed.
    public static var invalidTopic: Self { Self("invalidTopic") }
    /// An IO value whose form (JSON or raw bytes) does not match its IO point's `useRawIoValues`.
    public static var incompatibleIoValue: Self { Self("incompatibleIoValue") }
    /// A Swift object whose ``CoatyObject/jsonObject()`` threw.
    public static var unencodableObject: Self { Self("unencodableObject") }
}

// MARK: - FilterError

extension FilterError.Code {
    /// The filter is not a JSON object, its `conditions` are neither a condition nor an
    /// `and`/`or` group, or `skip`/`take` are not numbers.
    public static var invalidFilter: Self { Self("invalidFilter") }
    /// A condition is not a `[path, [operator, operands…]]` pair.
    public static var invalidCondition: Self { Self("invalidCondition") }
    /// An expression's operator is not one of the integer codes 0…14.
    public static var invalidOperator: Self { Self("invalidOperator") }
    /// A property path is neither a string nor an array of strings (or is the empty string
    /// where a condition needs a property).
    public static var invalidPropertyPath: Self { Self("invalidPropertyPath") }
    /// An `orderByProperties` entry is not a `[path, "Asc" | "Desc"]` pair.
    public static var invalidOrderBy: Self { Self("invalidOrderBy") }
    /// An object join condition lacks `localProperty`/`asProperty` strings or has non-Boolean
    /// flags.
    public static var invalidJoinCondition: Self { Self("invalidJoinCondition") }
    /// Evaluating the filter failed where coaty-js throws a `TypeError` (for example `In` with an
    /// operand that is not an array, or a nested `and`/`or` group).
    public static var evaluationFailed: Self { Self("evaluationFailed") }
}

// MARK: - JSONParseError

extension JSONParseError.Code {
    /// The text ended in the middle of a value.
    public static var unexpectedEnd: Self { Self("unexpectedEnd") }
    /// A byte that cannot start or continue a value here.
    public static var unexpectedByte: Self { Self("unexpectedByte") }
    /// A number that does not follow the JSON grammar.
    public static var invalidNumber: Self { Self("invalidNumber") }
    /// A number too large for a 64-bit double.
    public static var numberOutOfRange: Self { Self("numberOutOfRange") }
    /// A string with a raw control character.
    public static var invalidString: Self { Self("invalidString") }
    /// Bytes that are not UTF-8.
    public static var invalidUTF8: Self { Self("invalidUTF8") }
    /// A backslash escape that JSON does not define.
    public static var invalidEscape: Self { Self("invalidEscape") }
    /// Arrays and objects nested deeper than the parser's limit.
    public static var tooDeep: Self { Self("tooDeep") }
    /// More than whitespace after the value.
    public static var trailingContent: Self { Self("trailingContent") }
}

// MARK: - TopicParseError

extension TopicParseError.Code {
    /// The topic has fewer than four levels, so it has no event level (`coaty/3/-`).
    public static var missingEventLevel: Self { Self("missingEventLevel") }
    /// The version level does not start with a decimal integer that fits in `Int` (`coaty/abc/…`).
    public static var invalidVersion: Self { Self("invalidVersion") }
    /// The event name is not one of the thirteen Coaty event names (`adv`, `XYZ`).
    public static var unknownEventType: Self { Self("unknownEventType") }
    /// The topic ends after the event level, so it has no source level (`coaty/3/-/DAD`).
    public static var missingSourceID: Self { Self("missingSourceID") }
}

// MARK: - ObjectTypeRegistryError

extension ObjectTypeRegistryError.Code {
    /// The registry is frozen; register every type before the container finishes bootstrapping.
    public static var frozen: Self { Self("frozen") }
    /// Another type is already registered under this object type.
    public static var duplicateObjectType: Self { Self("duplicateObjectType") }
    /// The object type is not a valid event filter (empty, or contains `+`, `#`, `/` or NUL).
    public static var invalidObjectType: Self { Self("invalidObjectType") }
    /// The object type starts with the `coaty.` prefix that Coaty reserves for its own types.
    public static var reservedObjectType: Self { Self("reservedObjectType") }
    /// A fragment type or field name is already registered.
    public static var duplicateFragment: Self { Self("duplicateFragment") }
    /// The fragment field name is empty or names a base field of Coaty objects.
    public static var invalidFragmentField: Self { Self("invalidFragmentField") }
    /// A fragment type was read or written without being registered.
    public static var fragmentNotRegistered: Self { Self("fragmentNotRegistered") }
}
