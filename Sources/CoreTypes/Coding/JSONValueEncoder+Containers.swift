struct JSONValueKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoding
    let box: JSONValueEncodingBox
    let codingPath: [any CodingKey]

    @inline(__always)
    private func set(_ value: JSONValue, _ key: Key) {
        box.object.updateValue(value, forKey: encoder.wireName(key, at: codingPath))
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        set(try JSONValueEncoding.box(value, path(key)), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        set(try JSONValueEncoding.box(Double(value), path(key)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        set(try JSONValueEncoding.box(value, path(key)), key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        set(try JSONValueEncoding.box(value, path(key)), key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try encoder.encodeNested(value, key: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONValueEncodingBox(isArray: false)
        attach(nested, key)
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<NestedKey>(encoder: encoder, box: nested, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONValueEncodingBox(isArray: true)
        attach(nested, key)
        return JSONValueUnkeyedEncodingContainer(encoder: encoder, box: nested, codingPath: path(key))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: "super", key: AnyCodingKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: encoder.wireName(key, at: codingPath), key: key)
    }

    private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
        let child = JSONValueEncoding(keyStrategy: encoder.keyStrategy, keepsBaseFieldNames: false)
        child.codingPath = codingPath + [key]
        box.object.updateValue(.object(JSONObject()), forKey: name)
        box.nested.append((name, 0, .encoder(child)))
        return child
    }

    private func attach(_ nested: JSONValueEncodingBox, _ key: Key) {
        let name = encoder.wireName(key, at: codingPath)
        box.object.updateValue(nested.isArray ? .array([]) : .object(JSONObject()), forKey: name)
        box.nested.append((name, 0, .box(nested)))
    }
}

struct JSONValueUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoding
    let box: JSONValueEncodingBox
    let codingPath: [any CodingKey]

    var count: Int { box.array.count }

    private var indexKey: AnyCodingKey { AnyCodingKey(intValue: box.array.count) }

    mutating func encodeNil() throws { box.array.append(.null) }
    mutating func encode(_ value: Bool) throws { box.array.append(.bool(value)) }
    mutating func encode(_ value: String) throws { box.array.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        box.array.append(try JSONValueEncoding.box(value, codingPath + [indexKey]))
    }
    mutating func encode(_ value: Float) throws {
        box.array.append(try JSONValueEncoding.box(Double(value), codingPath + [indexKey]))
    }
    mutating func encode(_ value: Int) throws { box.array.append(.int(value)) }
    mutating func encode(_ value: Int8) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws {
        box.array.append(try JSONValueEncoding.box(value, codingPath + [indexKey]))
    }
    mutating func encode(_ value: UInt8) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { box.array.append(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws {
        box.array.append(try JSONValueEncoding.box(value, codingPath + [indexKey]))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        box.array.append(try encoder.encodeNested(value, key: indexKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = JSONValueEncodingBox(isArray: false)
        let path = codingPath + [indexKey]
        box.nested.append((nil, box.array.count, .box(nested)))
        box.array.append(.object(JSONObject()))
        return KeyedEncodingContainer(
            JSONValueKeyedEncodingContainer<NestedKey>(encoder: encoder, box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONValueEncodingBox(isArray: true)
        let path = codingPath + [indexKey]
        box.nested.append((nil, box.array.count, .box(nested)))
        box.array.append(.array([]))
        return JSONValueUnkeyedEncodingContainer(encoder: encoder, box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONValueEncoding(keyStrategy: encoder.keyStrategy, keepsBaseFieldNames: false)
        child.codingPath = codingPath + [indexKey]
        box.nested.append((nil, box.array.count, .encoder(child)))
        box.array.append(.object(JSONObject()))
        return child
    }
}

struct JSONValueSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: JSONValueEncoding
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) { encoder.result = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONValueEncoding.box(value, codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONValueEncoding.box(Double(value), codingPath)) }
    mutating func encode(_ value: Int) throws { set(.int(value)) }
    mutating func encode(_ value: Int8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { set(try JSONValueEncoding.box(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { set(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { set(try JSONValueEncoding.box(value, codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let passthrough = JSONValueEncoding.passthrough(value) {
            set(passthrough)
            return
        }
        encoder.result = .none
        try value.encode(to: encoder)
    }
}
