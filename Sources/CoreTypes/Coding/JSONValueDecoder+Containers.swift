/// What a keyed decoding container reads, held by reference: the standard library's container
/// box copies the container for every `decode` call (its methods are not `mutating`), and copying
/// one reference costs one retain where copying five cost five (9 % of decoding a `Light`).
final class KeyedDecodingState {
    let decoder: JSONValueDecoding
    let object: JSONObject
    let codingPath: [any CodingKey]
    /// Whether lookups are recorded in the decoder's ``JSONValueDecoding/accessedTopLevelMembers``.
    let tracks: Bool
    /// Where the next member is looked for first: `Decodable` types usually read their members in
    /// the order they were written, so each is found at once instead of by a scan.
    @exclusivity(unchecked) var next = 0

    init(decoder: JSONValueDecoding, object: JSONObject, codingPath: [any CodingKey], tracks: Bool) {
        self.decoder = decoder
        self.object = object
        self.codingPath = codingPath
        self.tracks = tracks
    }
}

struct JSONValueKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let state: KeyedDecodingState

    init(decoder: JSONValueDecoding, object: JSONObject, codingPath: [any CodingKey], tracks: Bool) {
        state = KeyedDecodingState(decoder: decoder, object: object, codingPath: codingPath, tracks: tracks)
    }

    private var decoder: JSONValueDecoding { state.decoder }
    private var object: JSONObject { state.object }
    var codingPath: [any CodingKey] { state.codingPath }

    var allKeys: [Key] {
        object.keys.compactMap { wireKey in
            if decoder.keepsBaseFieldNames && codingPath.isEmpty, let swiftName = BaseFields.swiftName(ofWireName: wireKey) {
                return Key(stringValue: swiftName)
            }
            if decoder.keyStrategy.isIdentity { return Key(stringValue: wireKey) }
            if decoder.keepsBaseFieldNames && codingPath.isEmpty && BaseFields.isBaseField(wireKey) {
                return Key(stringValue: wireKey)
            }
            return Key(stringValue: decoder.keyStrategy.swiftName(for: wireKey))
        }
    }

    @inline(__always)
    private func wireName(_ key: Key) -> String {
        let name = key.stringValue
        if decoder.keepsBaseFieldNames && codingPath.isEmpty, let wireName = BaseFields.wireName(ofSwiftName: name) {
            return wireName
        }
        if decoder.keyStrategy.isIdentity { return name }
        if decoder.keepsBaseFieldNames && codingPath.isEmpty && BaseFields.isBaseField(name) { return name }
        return decoder.keyStrategy.wireName(for: name)
    }

    /// The member for `key`, or `nil` when it is missing.
    @inline(__always)
    private func member(_ key: Key) -> JSONValue? {
        guard let position = state.object.position(of: wireName(key), hint: state.next) else { return nil }
        state.next = position + 1
        if state.tracks { state.decoder.accessedTopLevelMembers?[position] = true }
        return state.object.storage[position].value
    }

    @inline(__always)
    private func require(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "no member '\(wireName(key))' at \(JSONValueDecoding.dottedPath(codingPath))"))
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try require(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try JSONValueDecoding.unbox(require(key), as: type, path(key))
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeNested(type, from: require(key), key: key)
    }

    // Present-or-nil lookups in one step (the protocol's defaults look the key up three times).
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = member(key), !value.isNull else { return nil }
        return try JSONValueDecoding.unbox(value, as: type, path(key))
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = member(key), !value.isNull else { return nil }
        return try JSONValueDecoding.unbox(value, as: type, path(key))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = member(key), !value.isNull else { return nil }
        return try JSONValueDecoding.unbox(value, as: type, path(key))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = member(key), !value.isNull else { return nil }
        return try JSONValueDecoding.unbox(value, as: type, path(key))
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = member(key) else { return nil }
        if value.isNull && T.self != JSONValue.self { return nil }
        return try decoder.decodeNested(type, from: value, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try require(key)
        guard case .object(let nested) = value else {
            throw JSONValueDecoding.mismatch(JSONObject.self, value, path(key))
        }
        return KeyedDecodingContainer(
            JSONValueKeyedDecodingContainer<NestedKey>(
                decoder: decoder, object: nested, codingPath: path(key), tracks: false))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try require(key)
        guard case .array(let array) = value else {
            throw JSONValueDecoding.mismatch([JSONValue].self, value, path(key))
        }
        return JSONValueUnkeyedDecodingContainer(decoder: decoder, array: array, codingPath: path(key))
    }

    func superDecoder() throws -> any Decoder {
        makeSuperDecoder(object["super"] ?? .null, AnyCodingKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        makeSuperDecoder(member(key) ?? .null, key)
    }

    private func makeSuperDecoder(_ value: JSONValue, _ key: any CodingKey) -> any Decoder {
        let child = JSONValueDecoding(value: value, keyStrategy: decoder.keyStrategy, keepsBaseFieldNames: false)
        child.codingPath = codingPath + [key]
        return child
    }
}

struct JSONValueUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoding
    let array: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoding, array: [JSONValue], codingPath: [any CodingKey]) {
        self.decoder = decoder
        self.array = array
        self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var indexKey: AnyCodingKey { AnyCodingKey(intValue: currentIndex) }

    private mutating func next<T>(_ type: T.Type) throws -> JSONValue {
        guard currentIndex < array.count else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [indexKey],
                    debugDescription:
                        "array at \(JSONValueDecoding.dottedPath(codingPath)) has only \(array.count) elements"))
        }
        defer { currentIndex += 1 }
        return array[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < array.count, array[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: String.Type) throws -> String {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Double.Type) throws -> Double {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Int.Type) throws -> Int {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let path = codingPath + [indexKey]
        return try JSONValueDecoding.unbox(next(type), as: type, path)
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let key = indexKey
        return try decoder.decodeNested(type, from: next(type), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let path = codingPath + [indexKey]
        let value = try next(JSONObject.self)
        guard case .object(let object) = value else { throw JSONValueDecoding.mismatch(JSONObject.self, value, path) }
        return KeyedDecodingContainer(
            JSONValueKeyedDecodingContainer<NestedKey>(
                decoder: decoder, object: object, codingPath: path, tracks: false))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let path = codingPath + [indexKey]
        let value = try next([JSONValue].self)
        guard case .array(let array) = value else { throw JSONValueDecoding.mismatch([JSONValue].self, value, path) }
        return JSONValueUnkeyedDecodingContainer(decoder: decoder, array: array, codingPath: path)
    }

    mutating func superDecoder() throws -> any Decoder {
        let path = codingPath + [indexKey]
        let child = JSONValueDecoding(
            value: try next(JSONValue.self), keyStrategy: decoder.keyStrategy, keepsBaseFieldNames: false)
        child.codingPath = path
        return child
    }
}

struct JSONValueSingleValueDecodingContainer: SingleValueDecodingContainer {
    let decoder: JSONValueDecoding
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: String.Type) throws -> String { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try JSONValueDecoding.unbox(value, as: type, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let passthrough = JSONValueDecoding.passthrough(value, as: T.self) { return passthrough }
        return try T(from: decoder)
    }
}
