import CoreTypes
import Testing

@Suite struct SnapshotCaptureTests {
    static let lamp: JSONObject = [
        "objectId": "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Desk lamp", "brightness": 0.8,
    ]

    @Test func aCapturedSnapshotIsWrittenWithTheMembersAndOrderOfCoatyJsGenerateSnapshot() throws {
        let lamp = try ObjectTypeRegistry().decodeObject(Self.lamp)
        let snapshot = Snapshot(
            capturing: lamp, creatorID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c", creationTimestamp: 1_700_000_000_123,
            tags: ["hourly"], objectID: "b7c9e1f3-a5b7-4c9d-8e1f-3a5b7c9d1e3f")
        // coaty-js builds {objectId, parentObjectId, objectType, coreType, name, creatorId,
        // creationTimestamp, object, tags} and JSON.stringify keeps that order.
        #expect(
            try JSONValue.object(snapshot.jsonObject()).serializedString()
                == #"{"objectId":"b7c9e1f3-a5b7-4c9d-8e1f-3a5b7c9d1e3f","parentObjectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","#
                + #""objectType":"coaty.Snapshot","coreType":"Snapshot","name":"com.example.Light Desk lamp","#
                + #""creatorId":"5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c","creationTimestamp":1700000000123,"#
                + #""object":{"objectId":"8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2","objectType":"com.example.Light","#
                + #""coreType":"CoatyObject","name":"Desk lamp","brightness":0.8},"tags":["hourly"]}"#)
    }

    @Test func withoutTagsTheListIsWrittenEmptyAndTheSnapshotDecodesToTheSameBytes() throws {
        let registry = ObjectTypeRegistry()
        let lamp = try registry.decodeObject(Self.lamp)
        let snapshot = Snapshot(capturing: lamp, creatorID: "agent", creationTimestamp: 1)
        let json = try snapshot.jsonObject()
        #expect(json["tags"] == [])
        let decoded = try #require(try registry.decodeObject(json) as? Snapshot)
        #expect(decoded.parentObjectID == lamp.objectID && decoded.creatorID == "agent" && decoded.tags == [])
        #expect(
            try JSONValue.object(decoded.jsonObject()).serializedString() == JSONValue.object(json).serializedString())
    }
}
