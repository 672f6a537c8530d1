import CoreTypes
import FuzzSupport

/// The properties of the decode chain for every JSON input.
///
/// With a registry of core types only and one with the registered test types (``Registries``):
/// - A value that is not a JSON object is rejected.
/// - Registration only adds: an object that involves no registered type (neither its own object
///   type nor that of a Snapshot's captured object, at any depth) decodes the same with both
///   registries; one that decodes with the registered types also decodes with core types only
///   (the registry validates the core type first).
/// - Every decoded object also decodes as a ``BaseObject``, and as its own Swift type through
///   `decodeObject(_:as:)` (and, for core types, through `JSONValueDecoder`), to an equal value.
/// - A core type encodes back to exactly the input members, in input order (numbers by value),
///   unless it is a Snapshot that captures a registered type (at any depth): that part is written
///   as the registered type writes it.
/// - Encoding never fails for a decoded object; its JSON text decodes again to the same Swift type,
///   and encode → text → decode → encode is a fixed point (byte for byte for core types throughout;
///   as JSON with keys in any order where a registered type is involved, since its `Dictionary`
///   members have no order), with equal values.
enum ObjectProperties {
    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        guard let value = try? JSONValue(parsing: input) else { return }
        guard case .object(let json) = value else {
            require((try? Registries.plain.decodeObject(value)) == nil, "a \(value.typeName) decoded as an object")
            return
        }
        let plain = Outcome(json, Registries.plain)
        let registered = Outcome(json, Registries.registered)
        if involvesRegisteredType(json) {
            if case .decoded = registered {
                require(plain.isDecoded, "decoded with registered types but not as its core type: \(plain)")
            }
        } else {
            require(
                plain.isDecoded == registered.isDecoded && plain.sameObject(as: registered),
                "the registry with types decodes an unregistered object differently: \(plain) vs \(registered)")
        }
        for (outcome, registry) in [(plain, Registries.plain), (registered, Registries.registered)] {
            guard case .decoded(let object) = outcome else { continue }
            checkDecoded(object, from: json, registry: registry, isCore: isCoreTypeThroughout(object))
        }
    }

    /// Whether `json`'s object type is registered, or it is a Snapshot whose captured object (at any
    /// depth) involves a registered type: a registered type may reject what its core type accepts, so
    /// such an object may decode with core types only and be rejected with the registered types.
    private static func involvesRegisteredType(_ json: JSONObject) -> Bool {
        if json["objectType"]?.stringValue.flatMap(Registries.registered.registeredType(for:)) != nil {
            return true
        }
        guard json["coreType"]?.stringValue == CoreType.snapshot.rawValue,
            case .object(let captured)? = json["object"]
        else { return false }
        return involvesRegisteredType(captured)
    }

    private static func checkDecoded(
        _ object: any CoatyObject, from json: JSONObject, registry: ObjectTypeRegistry, isCore: Bool
    ) {
        require((try? BaseObject(jsonObject: json)) != nil, "decoded as \(type(of: object)) but not as a BaseObject")
        checkDecodingAs(object, json, registry)
        let encoded: JSONObject
        do {
            encoded = try object.jsonObject()
        } catch {
            violated("decoded \(type(of: object)) does not encode: \(error)")
        }
        if isCore {
            require(
                encoded.isSameJSON(as: json, keyOrder: true),
                "\(type(of: object)) does not encode back to its input\ninput   \(json)\nencoded \(encoded)")
        }
        let text = JSONValue.object(encoded).serialized()
        let second = decode(text, registry, after: object)
        let secondText = encodeText(second)
        // Core types keep the wire order; a registered type encodes a Swift `Dictionary` in its own
        // (unspecified) order, so its texts are compared as JSON with keys in any order.
        let firstJSON = try? JSONValue(parsing: text)
        let secondJSON = try? JSONValue(parsing: secondText)
        let isFixedPoint =
            isCore
            ? secondText == text : firstJSON.map { secondJSON?.isSameJSON(as: $0, keyOrder: false) == true } == true
        require(isFixedPoint, "not a fixed point\nfirst  \(excerpt(text))\nsecond \(excerpt(secondText))")
        let third = decode(secondText, registry, after: second)
        require(isEqual(second, third) != false, "\(type(of: second)) decoded from the same text is not equal")
    }

    /// Decodes `text` and checks it gives the same Swift type as `previous`.
    private static func decode(_ text: [UInt8], _ registry: ObjectTypeRegistry, after previous: any CoatyObject)
        -> any CoatyObject
    {
        do {
            let object = try registry.decodeObject(JSONValue(parsing: text))
            require(
                type(of: object) == type(of: previous),
                "\(type(of: previous)) came back as \(type(of: object)) from \(excerpt(text))")
            return object
        } catch {
            violated("the encoded \(type(of: previous)) does not decode: \(error)\n\(excerpt(text))")
        }
    }

    private static func encodeText(_ object: any CoatyObject) -> [UInt8] {
        do {
            return JSONValue.object(try object.jsonObject()).serialized()
        } catch {
            violated("re-decoded \(type(of: object)) does not encode: \(error)")
        }
    }

    private static func checkDecodingAs(_ object: any CoatyObject, _ json: JSONObject, _ registry: ObjectTypeRegistry) {
        func again<T: CoatyObject>(_ object: T) {
            do {
                let typed = try registry.decodeObject(json, as: T.self)
                require(isEqual(typed, object) != false, "decodeObject(_:as: \(T.self)) gives a different value")
            } catch {
                violated("decoded through the chain as \(T.self), but decodeObject(_:as:) throws \(error)")
            }
            guard isCoreTypeStruct(object) else { return }
            do {
                let viaCodable = try JSONValueDecoder().decode(T.self, from: json)
                require(isEqual(viaCodable, object) != false, "JSONValueDecoder gives a different \(T.self)")
            } catch {
                violated("\(T.self) does not decode through JSONValueDecoder: \(error)")
            }
        }
        again(object)
    }

    private enum Outcome: CustomStringConvertible {
        case decoded(any CoatyObject)
        case rejected(ObjectDecodingError)

        init(_ json: JSONObject, _ registry: ObjectTypeRegistry) {
            do throws(ObjectDecodingError) {
                self = .decoded(try registry.decodeObject(json))
            } catch {
                self = .rejected(error)
            }
        }

        var isDecoded: Bool {
            if case .decoded = self { return true }
            return false
        }

        func sameObject(as other: Outcome) -> Bool {
            switch (self, other) {
            case (.decoded(let a), .decoded(let b)): return type(of: a) == type(of: b) && isEqual(a, b) != false
            case (.rejected(let a), .rejected(let b)): return a == b
            default: return false
            }
        }

        var description: String {
            switch self {
            case .decoded(let object): return "decoded \(type(of: object))"
            case .rejected(let error): return "rejected: \(error)"
            }
        }
    }
}
