import CoreTypes
import Testing
import TestSupport

/// Every `inbound` case of events.json.
///
/// Checks the `createFrom` verdict of coaty-js (payload accepted, rejected, or not JSON) with the
/// Swift decoders, and the `delivered` verdict wherever payload and topic logic decide it: the
/// event constructors' topic-level checks, the requester's response checks, the Call context
/// rule and the local object type filter. What the received data looked like (`deliveredData`)
/// is compared with the re-encoded Swift event.
@Suite struct InboundEventVectorTests {
    static let cases = (try? VectorFiles.cases("events.json", group: "inbound")) ?? []

    /// Cases whose `delivered` verdict depends only on which observers the agent has wired up, not
    /// on any payload or topic check; the agent tests assert them. Their `createFrom` verdicts are
    /// still checked here.
    ///
    /// Other verdicts agree with the pure functions here but also need the agent to behave as
    /// coaty-js does; the agent tests should cover them too: `in-Advertise-other-namespace` (the
    /// binding does not look at the namespace level of inbound topics), `in-Advertise-echo-own-source`
    /// (no echo suppression), `in-Discover-no-correlation` (a request without correlation level is
    /// delivered), and the `in-Associate-*` cases, where `delivered` means that the IO state of the
    /// local actor changed (checked here only as "the Associate decodes").
    static let decidedByObserverWiring: [String: String] = [
        "in-Call-other-operation":
            "the Call for 'switchLight2' decodes fine; it is not delivered only because no observer "
            + "subscribed to that operation (agent routing)"
    ]

    @Test func vectorsAreLoaded() {
        #expect(Self.cases.count >= 113)
    }

    @Test(arguments: cases)
    func acceptsAndDeliversWhatCoatyJSDoes(_ vector: VectorCase) throws {
        let setupText = try #require(vector.input["setup"]?.stringValue)
        let topic = try #require(vector.input["topic"]?.stringValue)
        guard let setup = try InboundSetup(setupText) else {
            Issue.record("no Swift equivalent mapped for the setup \(setupText)")
            return
        }
        let verdict = try setup.receive(topic: topic, payload: vector.inboundPayload)
        let expected = vector.expected

        // createFrom: the payload check alone.
        if let createFrom = expected["createFrom"] {
            if createFrom["decodeError"] != nil {
                #expect(verdict.payloadError?.code == .notJSON, "coaty-js could not parse the payload")
            } else if createFrom["accepted"]?.boolValue == true {
                #expect(
                    verdict.payloadError == nil,
                    "coaty-js accepted the payload: \(verdict.payloadError.map { "\($0)" } ?? "")")
            } else {
                let error = try #require(verdict.payloadError, "coaty-js rejected: \(createFrom["error"] ?? "")")
                #expect(error.code != .notJSON)
                #expect(error.eventType == verdict.eventType)
            }
        }

        // delivered: the checks after decoding.
        guard let delivered = expected["delivered"]?.boolValue else {
            Issue.record("the case has no delivered verdict")
            return
        }
        if let reason = Self.decidedByObserverWiring[vector.name] {
            #expect(verdict.payloadError == nil, Comment(rawValue: reason))
        } else {
            #expect(verdict.isDelivered == delivered, "Swift: \(verdict.rejection ?? "delivered")")
        }
        if delivered, let deliveredData = expected["deliveredData"], let received = verdict.received {
            let want = deliveredData.removingUndefined()
            #expect(received.isEquivalent(to: want), "received \(received), coaty-js delivered \(want)")
        }
    }
}

extension JSONValue {
    /// Equality as JavaScript sees it: numbers by value (`1600000000000` and `1.6e12` are equal),
    /// object members in any order.
    func isEquivalent(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map(value.isEquivalent(to:)) ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        default:
            if let x = numberValue, let y = other.numberValue { return x == y }
            return self == other
        }
    }

    /// The value with every `{"$undefined": true}` member left out (the vectors' JS `undefined`).
    func removingUndefined() -> JSONValue {
        switch self {
        case .object(let object):
            var result = JSONObject()
            for (key, value) in object where value != ["$undefined": true] {
                result[key] = value.removingUndefined()
            }
            return .object(result)
        case .array(let elements):
            return .array(elements.map { $0.removingUndefined() })
        default:
            return self
        }
    }
}
