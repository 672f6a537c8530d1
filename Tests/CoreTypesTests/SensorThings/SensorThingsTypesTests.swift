import CoreTypes
import Testing

/// The SensorThings object types against the JSON coaty-js 2.4.1 sends, and its validation rules
/// (`SensorThingsTypes.isThing`, `isSensor`, `isObservation`, `isFeatureOfInterest`, `isValidTimeInterval`).
@Suite struct SensorThingsTypesTests {
    static let sensorJSON =
        #"{"name":"Thermometer","objectId":"5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4","objectType":"coaty.sensorThings.Sensor","coreType":"CoatyObject","parentObjectId":"0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3","description":"Kitchen thermometer","encodingType":"application/pdf","metadata":{"datasheet":"https://example.com/t.pdf"},"unitOfMeasurement":{"name":"Degree Celsius","symbol":"degC","definition":"http://www.qudt.org/qudt/owl/1.0.0/unit/Instances.html#DegreeCelsius"},"observationType":"http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_Measurement","phenomenonTime":{"start":1600000000000,"end":1600000360000},"observedProperty":{"name":"Temperature","definition":"http://dbpedia.org/page/Dew_point","description":"Air temperature"},"vendor":"ACME"}"#
    static let thingJSON =
        #"{"objectType":"coaty.sensorThings.Thing","coreType":"CoatyObject","objectId":"0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3","name":"Kitchen","description":"The kitchen","properties":{"floor":1},"locations":["c0d1e2f3-a4b5-4c6d-8e7f-8091a2b3c4d5"]}"#
    static let observationJSON =
        #"{"name":"Observation of Thermometer","objectId":"9e8d7c6b-5a49-4382-a716-0f1e2d3c4b5a","parentObjectId":"5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4","coreType":"CoatyObject","objectType":"coaty.sensorThings.Observation","phenomenonTime":1600000000123,"result":21.5,"resultTime":1600000000123,"resultQuality":["calibrated"],"validTime":{"duration":60000},"parameters":{"humidity":40},"featureOfInterestId":"f0e1d2c3-b4a5-4968-8776-655443322110"}"#
    static let featureJSON =
        #"{"objectId":"f0e1d2c3-b4a5-4968-8776-655443322110","objectType":"coaty.sensorThings.FeatureOfInterest","coreType":"CoatyObject","name":"Kitchen air","description":"The air in the kitchen","encodingType":"application/vnd.geo+json","metadata":null}"#

    private func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: text).objectValue)
    }

    private func text(_ object: some CoatyObject) throws -> String {
        try JSONValue.object(object.jsonObject()).serializedString()
    }

    private func registry() throws -> ObjectTypeRegistry {
        var registry = ObjectTypeRegistry()
        try registry.registerSensorThings()
        registry.freeze()
        return registry
    }

    @Test(arguments: [sensorJSON, thingJSON, observationJSON, featureJSON])
    func coatyJSObjectsDecodeAsTheirTypeAndEncodeToTheSameBytes(json: String) throws {
        let registry = try registry()
        let decoded = try registry.decodeObject(object(json))
        #expect(decoded.objectType.hasPrefix("coaty.sensorThings."))
        let registered = try #require(registry.registeredType(for: decoded.objectType))
        #expect(ObjectIdentifier(type(of: decoded)) == ObjectIdentifier(registered))
        #expect(try JSONValue.object(decoded.jsonObject()).serializedString() == json)
    }

    @Test func aDecodedSensorHasTypedMembersAndKeepsUnknownOnes() throws {
        let sensor = try Sensor(jsonObject: object(Self.sensorJSON))
        #expect(sensor.encodingType == .pdf)
        #expect(sensor.observationType == .measurement)
        #expect(sensor.unitOfMeasurement.symbol == "degC")
        #expect(sensor.observedProperty.name == "Temperature")
        #expect(sensor.phenomenonTime == EpochInterval(start: 1_600_000_000_000, end: 1_600_000_360_000))
        #expect(sensor.parentObjectID == "0b1c2d3e-4f50-4a6b-9c7d-8e9fa0b1c2d3")
        #expect(sensor.metadata["datasheet"] == "https://example.com/t.pdf")
        #expect(sensor.custom == ["vendor": "ACME"])
    }

    @Test func withoutRegistrationTheyArriveAsBaseObjects() throws {
        let decoded = try ObjectTypeRegistry().decodeObject(object(Self.observationJSON))
        #expect(decoded is BaseObject)
        #expect(decoded.custom["result"] == 21.5)
        #expect(try ObjectTypeRegistry().decodeObject(object(Self.observationJSON), as: Observation.self).result == 21.5)
    }

    @Test func anObservationMadeInSwiftEncodesInCoatyJSOrder() throws {
        let observation = Observation(
            objectID: "9e8d7c6b-5a49-4382-a716-0f1e2d3c4b5a", name: "Observation of Thermometer",
            phenomenonTime: 1_600_000_000_123, result: 21.5, resultTime: 1_600_000_000_123,
            resultQuality: ["calibrated"], validTime: EpochInterval(duration: 60000), parameters: ["humidity": 40],
            featureOfInterestID: "f0e1d2c3-b4a5-4968-8776-655443322110",
            parentObjectID: "5a0c1d2e-3f40-4b5c-8d6e-7f8091a2b3c4")
        #expect(try text(observation) == Self.observationJSON)
        let minimal = Observation(objectID: "o", name: "n", phenomenonTime: 0, result: .null, resultTime: 0)
        #expect(
            try text(minimal)
                == #"{"name":"n","objectId":"o","coreType":"CoatyObject","objectType":"coaty.sensorThings.Observation","phenomenonTime":0,"result":null,"resultTime":0}"#
        )
    }

    @Test func objectsMadeInSwiftEncodeBaseFieldsThenTheirMembers() throws {
        let thing = Thing(objectID: "t", name: "Kitchen", description: "The kitchen", locations: ["l"], custom: ["x": 1])
        #expect(
            try text(thing)
                == #"{"objectId":"t","objectType":"coaty.sensorThings.Thing","coreType":"CoatyObject","name":"Kitchen","description":"The kitchen","locations":["l"],"x":1}"#
        )
        let sensor = Sensor(
            objectID: "s", name: "Switch", description: "", encodingType: .undefined, metadata: [:],
            unitOfMeasurement: UnitOfMeasurement(), observationType: .truth,
            observedProperty: ObservedProperty(name: "On", definition: "", description: ""), parentObjectID: "t")
        #expect(
            try text(sensor)
                == #"{"objectId":"s","objectType":"coaty.sensorThings.Sensor","coreType":"CoatyObject","name":"Switch","parentObjectId":"t","description":"","encodingType":"","metadata":{},"unitOfMeasurement":{},"observationType":"http://www.opengis.net/def/observationType/OGC-OM/2.0/OM_TruthObservation","observedProperty":{"name":"On","definition":"","description":""}}"#
        )
    }

    @Test func theConstantsAreCoatyJSs() {
        #expect(EncodingType.sensorML.rawValue == "http://www.opengis.net/doc/IS/SensorML/2.0")
        #expect(EncodingType.geoJSON.rawValue == "application/vnd.geo+json")
        let om = "http://www.opengis.net/def/observationType/OGC-OM/2.0/"
        #expect(ObservationType.category.rawValue == om + "OM_Category_Observation")
        #expect(ObservationType.count.rawValue == om + "OM_CountObservation")
        #expect(ObservationType.observation.rawValue == om + "OM_Observation")
        #expect(
            [Thing.objectType, Sensor.objectType, Observation.objectType, FeatureOfInterest.objectType] == [
                "coaty.sensorThings.Thing", "coaty.sensorThings.Sensor", "coaty.sensorThings.Observation",
                "coaty.sensorThings.FeatureOfInterest",
            ])
    }

    struct Invalid: Sendable, CustomTestStringConvertible {
        let json: String
        let field: String?
        let reason: String
        var testDescription: String { "\(field ?? "-"): \(reason)" }
    }

    static let base = #""objectId":"x","coreType":"CoatyObject","name":"n""#
    static let sensorMembers =
        #""encodingType":"","metadata":0,"unitOfMeasurement":{},"observationType":"o","observedProperty":{"name":"p","definition":"","description":""}"#
    static let observationType = #""objectType":"coaty.sensorThings.Observation""#

    static let invalid: [Invalid] = [
        Invalid(json: #"{\#(base),"objectType":"coaty.sensorThings.Thing"}"#, field: "description", reason: "missing"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Thing","description":"d","locations":["a",""]}"#,
            field: "locations.1", reason: "non-empty"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Thing","description":"d","properties":[]}"#,
            field: "properties", reason: "an object"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Sensor","description":"d","encodingType":"","unitOfMeasurement":{},"observationType":"o","observedProperty":{"name":"p","definition":"","description":""}}"#,
            field: "metadata", reason: "missing"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Sensor","description":"d","encodingType":"","metadata":0,"unitOfMeasurement":{},"observationType":"o","observedProperty":{"name":"","definition":"","description":""}}"#,
            field: "observedProperty.name", reason: "non-empty"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Sensor","description":"d",\#(sensorMembers),"unitOfMeasurement":{"symbol":3}}"#,
            field: "unitOfMeasurement.symbol", reason: "a string"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Sensor","description":"d",\#(sensorMembers),"resultTime":{"start":1}}"#,
            field: "resultTime", reason: "start and end"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.Sensor","description":"d",\#(sensorMembers),"phenomenonTime":{"start":1,"end":2,"duration":1}}"#,
            field: "phenomenonTime", reason: "start, end and duration"),
        Invalid(
            json: #"{\#(base),\#(observationType),"result":1,"resultTime":0}"#, field: "phenomenonTime", reason: "missing"),
        Invalid(
            json: #"{\#(base),\#(observationType),"phenomenonTime":-1,"result":1,"resultTime":0}"#,
            field: "phenomenonTime", reason: "not below 0"),
        Invalid(
            json: #"{\#(base),\#(observationType),"phenomenonTime":1,"resultTime":0}"#, field: "result", reason: "missing"),
        Invalid(
            json: #"{\#(base),\#(observationType),"phenomenonTime":1,"result":1,"resultTime":"now"}"#,
            field: "resultTime", reason: "a number"),
        Invalid(
            json: #"{\#(base),\#(observationType),"phenomenonTime":1,"result":1,"resultTime":1,"validTime":{"duration":-5}}"#,
            field: "validTime.duration", reason: "negative"),
        Invalid(
            json: #"{\#(base),\#(observationType),"phenomenonTime":1,"result":1,"resultTime":1,"featureOfInterestId":""}"#,
            field: "featureOfInterestId", reason: "non-empty"),
        Invalid(
            json: #"{\#(base),"objectType":"coaty.sensorThings.FeatureOfInterest","description":"d","encodingType":null,"metadata":1}"#,
            field: "encodingType", reason: "found null"),
    ]

    @Test(arguments: invalid)
    func invalidObjectsAreRejectedNamingTheMember(_ invalid: Invalid) throws {
        let error = #expect(throws: ObjectDecodingError.self) { try self.registry().decodeObject(self.object(invalid.json)) }
        #expect(error?.field == invalid.field)
        #expect(error?.reason.contains(invalid.reason) == true, "\(error?.reason ?? "")")
    }

    @Test func theTypedInitializerChecksTheObjectType() throws {
        let error = #expect(throws: ObjectDecodingError.self) { try Thing(jsonObject: self.object(Self.sensorJSON)) }
        #expect(error?.field == "objectType")
        #expect(error?.reason.contains("coaty.sensorThings.Thing") == true)
    }

    @Test func anInvalidObjectMadeInSwiftIsNotEncoded() throws {
        var observation = Observation(name: "n", phenomenonTime: -1, result: 1, resultTime: 0)
        #expect(throws: ObjectDecodingError.self) { try observation.jsonObject() }
        observation.phenomenonTime = 0
        observation.validTime = EpochInterval(start: 1, end: 2)
        observation.validTime?.duration = 3
        let error = #expect(throws: ObjectDecodingError.self) { try observation.jsonObject() }
        #expect(error?.field == "validTime")
        var thing = Thing(name: "n", description: "")
        thing.objectType = "com.example.Thing"
        #expect(throws: ObjectDecodingError.self) { try thing.jsonObject() }
    }

    @Test(arguments: [
        (#"{"start":1,"end":2}"#, true), (#"{"start":1,"duration":2}"#, true), (#"{"duration":2,"end":3}"#, true),
        (#"{"duration":0}"#, true), (#"{}"#, false), (#"{"end":1}"#, false), (#"{"start":1}"#, false),
        (#"{"start":-1,"end":2}"#, false), (#"{"start":1,"end":2,"duration":1}"#, false),
    ])
    func timeIntervalFormsAreCoatyJSs(json: String, isValid: Bool) throws {
        let parsed = try object(json)
        if isValid {
            let interval = try EpochInterval(jsonObject: parsed)
            #expect(JSONValue.object(interval.jsonObject()).serializedString() == json)
        } else {
            #expect(throws: ObjectDecodingError.self) { try EpochInterval(jsonObject: parsed) }
        }
    }

    @Test func theSensorThingsTypesMayUseTheReservedPrefixOtherTypesMayNot() throws {
        var registry = ObjectTypeRegistry()
        for type in SensorThings.objectTypes { try registry.register(type) }
        #expect(registry.registeredObjectTypes.count == 4)
        let duplicate = #expect(throws: ObjectTypeRegistryError.self) { try registry.registerSensorThings() }
        #expect(duplicate?.code == .duplicateObjectType)
        let reserved = #expect(throws: ObjectTypeRegistryError.self) { try registry.register(Impostor.self) }
        #expect(reserved?.code == .reservedObjectType)
    }

    struct Impostor: CoatyObject {
        static let coreType = CoreType.coatyObject
        static let objectType = "coaty.sensorThings.Impostor"
        var objectID = "i"
        var name = "i"
    }
}
