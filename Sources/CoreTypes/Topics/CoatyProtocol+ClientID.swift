extension CoatyProtocol {
    /// The MQTT client identifier of an agent: `"Coaty"` and the first 18 characters of its identity
    /// id with every `-` removed.
    ///
    /// For a UUID identity this is 23 characters, the length every MQTT 3.1.1 broker must accept.
    /// Ids are not checked, as in coaty-js. Two agents with the same identity id get the same client
    /// id, and the broker disconnects one whenever the other connects.
    ///
    /// ```swift
    /// CoatyProtocol.mqttClientID(forIdentityID: "5c3e1a2b-7d4f-4e6a-9b8c-0d1e2f3a4b5c")
    /// // "Coaty5c3e1a2b7d4f4e6a9b"
    /// CoatyProtocol.mqttClientID(forIdentityID: "agent-1")  // "Coatyagent1"
    /// ```
    ///
    /// Characters are counted in UTF-16 code units, as JavaScript's `substr` does.
    public static func mqttClientID(forIdentityID identityID: String) -> String {
        let withoutDashes = identityID.utf16.lazy.filter { $0 != UInt16(UInt8(ascii: "-")) }.prefix(18)
        return "Coaty" + String(decoding: Array(withoutDashes), as: UTF16.self)
    }
}
