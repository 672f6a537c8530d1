import CoreTypes
import Foundation
import Testing
import TestSupport

/// The objects.json vectors: core-type validation and lossless round trips, against coaty-js 2.4.1.
@Suite struct ObjectVectorTests {
    /// The Swift type that decodes "as core type `name`" (coaty-js `CoreTypes.isObject(obj, name)`).
    static func decodeAs(_ name: String, _ object: JSONObject) throws -> any CoatyObject {
        let registry = ObjectTypeRegistry()
        switch name {
        case "CoatyObject": return try registry.decodeObject(object, as: BaseObject.self)
        case "User": return try registry.decodeObject(object, as: User.self)
        case "Annotation": return try registry.decodeObject(object, as: Annotation.self)
        case "Task": return try registry.decodeObject(object, as: TaskObject.self)
        case "IoContext": return try registry.decodeObject(object, as: IoContext.self)
        case "IoNode": return try registry.decodeObject(object, as: IoNode.self)
        case "IoSource": return try registry.decodeObject(object, as: IoSource.self)
        case "IoActor": return try registry.decodeObject(object, as: IoActor.self)
        case "Identity": return try registry.decodeObject(object, as: Identity.self)
        case "Log": return try registry.decodeObject(object, as: Log.self)
        case "Location": return try registry.decodeObject(object, as: Location.self)
        case "Snapshot": return try registry.decodeObject(object, as: Snapshot.self)
        default: throw ObjectDecodingError(objectType: nil, coreType: name, field: nil, reason: "not a core type")
        }
    }

    /// Checks one `validation` case both ways (also for vectors from another folder).
    static func checkValidation(_ vector: VectorCase) throws {
        try ObjectVectorTests().validationMatchesIsObject(vector: vector)
        try ObjectVectorTests().validationAsCoreTypeMatchesIsObjectWithCoreType(vector: vector)
    }

    @Test(arguments: try VectorFiles.cases("objects.json", group: "validation"))
    func validationMatchesIsObject(vector: VectorCase) throws {
        let input = try #require(vector.input["object"])
        let isObject = vector.expected["isObject"] == true
        let decoded = Result { try ObjectTypeRegistry().decodeObject(input) }
        if isObject {
            let object = try decoded.get()
            // Decoding keeps everything: encoding gives back the same text.
            #expect(try JSONValue.object(object.jsonObject()).serializedString() == input.serializedString())
        } else {
            #expect(throws: ObjectDecodingError.self) { try decoded.get() }
        }
    }

    @Test(arguments: try VectorFiles.cases("objects.json", group: "validation"))
    func validationAsCoreTypeMatchesIsObjectWithCoreType(vector: VectorCase) throws {
        let coreType = try #require(vector.json["coreType"]?.stringValue)
        let expected = vector.expected["isObjectAsCoreType"] == true
        let input = try #require(vector.input["object"])
        guard let object = input.objectValue else {
            #expect(!expected, "a non-object never validates")
            return
        }
        if expected {
            let decoded = try Self.decodeAs(coreType, object)
            #expect(try JSONValue.object(decoded.jsonObject()).serializedString() == input.serializedString())
        } else {
            #expect(throws: ObjectDecodingError.self) { try Self.decodeAs(coreType, object) }
        }
    }

    /// The Advertise payload's object is decoded through the chain and encoded again; the bytes
    /// must be what coaty-js publishes, up to the two deviations of ``SwiftJSONDeviation`` (exact
    /// integers beyond 2^53, lone surrogates), which are rules about the input.
    @Test(arguments: try VectorFiles.cases("objects.json", group: "roundTrip"))
    func roundTripReproducesCoatyJSBytes(vector: VectorCase) throws {
        try Self.checkRoundTrip(vector)
    }

    /// Checks one `roundTrip` case (also for vectors from another folder).
    static func checkRoundTrip(_ vector: VectorCase) throws {
        let payload = try #require(vector.input["inputPayload"]?.stringValue)
        let accepted = vector.expected["accepted"] == true
        let registry = ObjectTypeRegistry()
        let decode = Result { () throws -> any CoatyObject in
            let value = try JSONValue(parsing: payload)
            return try registry.decodeObject(value["object"] ?? .null)
        }
        guard accepted else {
            #expect(throws: (any Error).self) { try decode.get() }
            return
        }
        let output = try decode.get().jsonObject()
        let text = JSONValue.object(output).serializedString()
        let expected = try #require(vector.expected["outputObjectText"]?.stringValue)
        let input = try #require(vector.input["objectText"]?.stringValue)
        #expect(text == (try SwiftJSONDeviation.expectedText(coatyJS: expected, input: input)))
    }
}
