import CoreTypes
import FuzzSupport

extension ObjectProperties {
    /// Every Coaty object of the vectors (and the object texts of the round-trip cases), and each
    /// registered test type in a valid and a slightly broken form.
    static func seeds(_ vectors: Vectors) -> [[UInt8]] {
        var seeds = vectors.coatyObjects().map { JSONValue.object($0).seed }
        seeds += vectors.strings(forKeys: ["objectText", "outputObjectText"]).map(\.seed)
        seeds += [
            #"{"objectId":"l1","objectType":"com.example.fuzz.Lamp","coreType":"CoatyObject","name":"Lamp","isOn":true,"brightness":0.5,"tags":["a","b"],"settings":{"mode":"eco","levels":[1,2]},"color":"red","parentObjectId":"p"}"#,
            #"{"objectId":"l2","objectType":"com.example.fuzz.Lamp","coreType":"CoatyObject","name":"","isOn":"yes"}"#,
            #"{"objectId":"j1","objectType":"com.example.fuzz.Job","coreType":"Task","name":"Job","status":1,"creatorId":"u","creationTimestamp":1.5e12,"priority":3,"dueTimestamp":"soon"}"#,
            #"{"objectId":"j2","objectType":"com.example.fuzz.Job","coreType":"CoatyObject","name":"Job","status":9}"#,
            #"{"objectId":"m1","objectType":"com.example.fuzz.Meter","coreType":"CoatyObject","name":"M","SerialNumber":"S-1","Readings":{"a":1.5,"b":-2}}"#,
            #"{"objectId":"m2","objectType":"com.example.fuzz.Meter","coreType":"CoatyObject","name":"M","serialNumber":"S-1"}"#,
        ].map(\.seed)
        return seeds
    }
}
