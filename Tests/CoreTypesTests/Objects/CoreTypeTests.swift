import CoreTypes
import Foundation
import Testing
import TestSupport

@Suite struct CoreTypeTests {
    private func text(_ object: some CoatyObject) throws -> String {
        try JSONValue.object(object.jsonObject()).serializedString()
    }

    private func object(_ text: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: text).objectValue)
    }

    @Test func identityEncodesInCoatyJSOrder() throws {
        var identity = Identity(objectID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c", name: "Vector Agent")
        #expect(
            try text(identity)
                == #"{"objectId":"5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c","name":"Vector Agent","objectType":"coaty.Identity","coreType":"Identity"}"#
        )
        identity.externalID = "ext"
        identity.custom["extraField"] = 1
        #expect(
            try text(identity)
                == #"{"objectId":"5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c","name":"Vector Agent","externalId":"ext","extraField":1,"objectType":"coaty.Identity","coreType":"Identity"}"#
        )
        #expect(Identity().name == "Coaty Agent")
    }

    /// The identity in the topics.json `join` vectors is what we publish for the same identity
    /// (the harness names its agent "Vector Agent" unless the case configures a name).
    @Test(arguments: try VectorFiles.cases("topics.json", group: "join"))
    func identityMatchesTheJoinVector(vector: VectorCase) throws {
        let objectID = try #require(vector.input["identityId"]?.stringValue)
        let options = vector.input["identity"]?.objectValue ?? [:]
        var ours = Identity(objectID: objectID, name: options["name"]?.stringValue ?? "Vector Agent")
        for (key, value) in options where key != "name" {
            if key == "externalId" { ours.externalID = value.stringValue } else { ours.custom[key] = value }
        }
        let publications = vector.expected["joinPublications"]?.arrayValue ?? []
        let advertise = try #require(
            publications.first { $0["topic"]?.stringValue?.contains("/ADV:Identity/") == true })
        let payload = try JSONValue(parsing: try #require(advertise["payload"]?.stringValue))
        #expect(try text(ours) == payload["object"]?.serializedString())
    }

    @Test func swiftCreatedObjectsEncodeInAFixedOrder() throws {
        let task = TaskObject(
            objectID: "t", name: "Repair", status: .pending, creatorID: "c", creationTimestamp: 1_600_000_000_000,
            description: "Fix it", parentObjectID: "p", custom: ["priority": 1])
        #expect(
            try text(task)
                == #"{"objectId":"t","objectType":"coaty.Task","coreType":"Task","name":"Repair","parentObjectId":"p","status":0,"creatorId":"c","creationTimestamp":1600000000000,"description":"Fix it","priority":1}"#
        )
    }

    @Test func decodedObjectsKeepWireOrderAndAppendNewMembers() throws {
        let input =
            #"{"status":1,"name":"Repair","objectType":"coaty.Task","x":true,"coreType":"Task","objectId":"t","creatorId":"c","creationTimestamp":5}"#
        var task = try TaskObject(jsonObject: object(input))
        #expect(try text(task) == input)
        task.status = .done
        task.dueTimestamp = 10
        task.custom["x"] = nil
        task.custom["y"] = "new"
        #expect(
            try text(task)
                == #"{"status":2,"name":"Repair","objectType":"coaty.Task","coreType":"Task","objectId":"t","creatorId":"c","creationTimestamp":5,"dueTimestamp":10,"y":"new"}"#
        )
    }

    @Test func nestedStructuresKeepTheirOrderAndExtraMembers() throws {
        let input =
            #"{"objectType":"coaty.Location","coreType":"Location","objectId":"l","name":"Loc","geoLocation":{"timestamp":1,"coords":{"accuracy":5,"latitude":48.1,"longitude":11.6,"floor":3},"source":"gps"}}"#
        var location = try Location(jsonObject: object(input))
        #expect(location.geoLocation.coords.custom["floor"] == 3)
        #expect(location.geoLocation.custom["source"] == "gps")
        #expect(try text(location) == input)
        location.geoLocation.coords.speed = 2
        #expect(
            try text(location).contains(
                #""coords":{"accuracy":5,"latitude":48.1,"longitude":11.6,"floor":3,"speed":2}"#))
    }

    @Test func unvalidatedTaskTimestampsOfTheWrongTypeStayInCustom() throws {
        let input =
            #"{"objectType":"coaty.Task","coreType":"Task","objectId":"t","name":"T","status":0,"creatorId":"c","creationTimestamp":1,"dueTimestamp":"tomorrow","startTimestamp":3}"#
        let task = try TaskObject(jsonObject: object(input))
        #expect(task.dueTimestamp == nil)
        #expect(task.custom["dueTimestamp"] == "tomorrow")
        #expect(task.custom["startTimestamp"] == 3)
        #expect(try text(task) == input)
        let badStart = input.replacingOccurrences(of: #""startTimestamp":3"#, with: #""startTimestamp":"3""#)
        let error = #expect(throws: ObjectDecodingError.self) { try TaskObject(jsonObject: object(badStart)) }
        #expect(error?.field == "startTimestamp")
    }

    @Test func enumerationsAreIntegersAndUnknownValuesAreRejected() throws {
        let base =
            #"{"objectType":"coaty.Log","coreType":"Log","objectId":"o","name":"L","logMessage":"m","logDate":"d","logLevel":"#
        #expect(try Log(jsonObject: object(base + "40}")).logLevel == .error)
        #expect(try Log(jsonObject: object(base + "40.0}")).logLevel == .error)
        let unknown = #expect(throws: ObjectDecodingError.self) { try Log(jsonObject: object(base + "15}")) }
        #expect(unknown?.field == "logLevel")
        #expect(throws: ObjectDecodingError.self) { try Log(jsonObject: object(base + "40.5}")) }
        #expect(throws: ObjectDecodingError.self) { try Log(jsonObject: object(base + "\"40\"}")) }
    }

    @Test func ioActorKeepsAnUpdateStrategyInCustom() throws {
        let input =
            #"{"objectType":"coaty.IoActor","coreType":"IoActor","objectId":"a","name":"A","valueType":"t","updateStrategy":99}"#
        let actor = try IoActor(jsonObject: object(input))
        #expect(actor.custom["updateStrategy"] == 99)
        let source = input.replacingOccurrences(of: "IoActor", with: "IoSource")
        let error = #expect(throws: ObjectDecodingError.self) { try IoSource(jsonObject: object(source)) }
        #expect(error?.field == "updateStrategy")
    }

    @Test func nestedErrorsNameTheFullPath() throws {
        let node =
            #"{"objectType":"coaty.IoNode","coreType":"IoNode","objectId":"n","name":"k","ioSources":[{"objectType":"coaty.IoSource","coreType":"IoSource","objectId":"s","name":"S","valueType":""}]}"#
        let error = #expect(throws: ObjectDecodingError.self) { try IoNode(jsonObject: object(node)) }
        #expect(error?.field == "ioSources.0.valueType")
        #expect(error?.coreType == "IoNode")
        let user =
            #"{"objectType":"coaty.User","coreType":"User","objectId":"u","name":"u","names":{"formatted":"F"},"roles":["a",""]}"#
        let roles = #expect(throws: ObjectDecodingError.self) { try User(jsonObject: object(user)) }
        #expect(roles?.field == "roles.1")
    }

    @Test func baseObjectViewOfAnotherCoreTypeKeepsTheCoreType() throws {
        let input = #"{"objectType":"coaty.Task","coreType":"Task","objectId":"t","name":"T","status":0}"#
        let base = try BaseObject(jsonObject: object(input))
        #expect(base.coreType == .task)
        let erased: any CoatyObject = base
        #expect(erased.coreType == .task)
        #expect(try text(base) == input)
    }

    @Test func coreTypesAreCodableWithAnyCoder() throws {
        let log = Log(
            objectID: "o", name: "C", logLevel: .info, logMessage: "on", logDate: "2021-10-22T11:00:58.018+02:00",
            logTags: ["lights"], logHost: LogHost(pid: 4242))
        let data = try JSONEncoder().encode(log)
        let back = try JSONDecoder().decode(Log.self, from: data)
        #expect(back == log)
        let value = try JSONValueEncoder().encode(log)
        #expect(try JSONValueDecoder().decode(Log.self, from: value) == log)
        #expect(
            value.serializedString()
                == #"{"objectId":"o","objectType":"coaty.Log","coreType":"Log","name":"C","logLevel":20,"logMessage":"on","logDate":"2021-10-22T11:00:58.018+02:00","logTags":["lights"],"logHost":{"pid":4242}}"#
        )
        let bad = #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Log.self, from: ["objectType": "coaty.Log", "coreType": "Log"] as JSONObject)
        }
        #expect(bad != nil)
    }

    @Test func everyCoreTypeIsCreatableAndDecodesBack() throws {
        let source = IoSource(objectID: "s", name: "S", valueType: "t", updateStrategy: .sample, updateRate: 100)
        let actor = IoActor(objectID: "a", name: "A", valueType: "t")
        let objects: [any CoatyObject] = [
            BaseObject(objectID: "o", name: "O"),
            User(
                objectID: "u", name: "jdoe", names: ScimUserNames(familyName: "Doe", givenName: "Jane"),
                emails: [ScimMultiValuedAttribute(type: "work", value: "j@x")],
                addresses: [ScimAddress(type: "home", value: "v", country: "DE")]),
            Annotation(
                objectID: "a", name: "N", type: .image, creatorID: "c", creationTimestamp: 1, status: .published,
                variants: [AnnotationVariant(variant: "hd", downloadUrl: "u")]),
            TaskObject(objectID: "t", name: "T", status: .request, creatorID: "c", creationTimestamp: 0),
            IoContext(objectID: "c", name: "kitchen"),
            IoNode(objectID: "n", name: "kitchen", ioSources: [source], ioActors: [actor], characteristics: ["k": 1]),
            source, actor, Identity(objectID: "i"),
            Log(
                objectID: "l", name: "L", logLevel: .fatal, logMessage: "m", logDate: "d",
                logHost: LogHost(
                    agentInfo: AgentInfo(
                        packageInfo: .init(name: "p", version: "1"),
                        buildInfo: .init(buildDate: "b", buildMode: "production"), configInfo: .init(serviceHost: "")))),
            Location(
                objectID: "loc", name: "L",
                geoLocation: GeoLocation(coords: GeoCoordinates(latitude: 1, longitude: 2, accuracy: 3), timestamp: 4)),
            Snapshot(
                objectID: "snap", name: "S", parentObjectID: "t", creationTimestamp: 1, creatorID: "c",
                object: TaskObject(objectID: "t", name: "T", status: .done, creatorID: "c", creationTimestamp: 1)),
        ]
        #expect(Set(objects.map(\.coreType)) == Set(CoreType.allCases))
        for object in objects {
            let json = try object.jsonObject()
            let decoded = try ObjectTypeRegistry().decodeObject(json)
            #expect(type(of: decoded) == type(of: object))
            #expect(decoded.coreType == object.coreType)
            #expect(
                try JSONValue.object(decoded.jsonObject()).serializedString()
                    == JSONValue.object(json).serializedString())
        }
    }
}
