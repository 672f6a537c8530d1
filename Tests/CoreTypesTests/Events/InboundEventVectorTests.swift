import CoreTypes
import Testing
import TestSupport

/// Every `inbound` case of events.json.
///
/// Checks the `createFrom` verdict of coaty-js (payload accepted, rejected, or not JSON) with the
/// Swift decoders, and the `delivered` verdict with a real agent configured from the case's input
/// (``InboundAgent``): its router, decoders and observers decide, not a table of cases. What the
/// observer received (`deliveredData`) is compared with the re-encoded Swift event.
@Suite struct InboundEventVectorTests {
    static let cases = (try? VectorFiles.cases("events.json", group: "inbound")) ?? []

    @Test func vectorsAreLoaded() {
        #expect(Self.cases.count >= 113)
    }

    @Test(arguments: cases)
    func acceptsAndDeliversWhatCoatyJSDoes(_ vector: VectorCase) async throws {
        try await Self.check(vector)
    }

    /// Checks one inbound case (also for vectors from another folder).
    static func check(_ vector: VectorCase) async throws {
        let topic = try #require(vector.input["topic"]?.stringValue)
        let expected = vector.expected

        // createFrom: the payload check alone.
        if let createFrom = expected["createFrom"], createFrom != .null {
            let (eventType, payloadError) = try InboundPayload.error(topic: topic, payload: vector.inboundPayload)
            if createFrom["decodeError"] != nil {
                #expect(payloadError?.code == .notJSON, "coaty-js could not parse the payload")
            } else if createFrom["accepted"]?.boolValue == true {
                #expect(payloadError == nil, "coaty-js accepted the payload: \(payloadError.map { "\($0)" } ?? "")")
            } else {
                let error = try #require(payloadError, "coaty-js rejected: \(createFrom["error"] ?? "")")
                #expect(error.code != .notJSON)
                #expect(error.eventType == eventType)
            }
        }

        // delivered: what a real agent with the case's observer did with the message.
        guard let delivered = expected["delivered"]?.boolValue else {
            Issue.record("the case has no delivered verdict")
            return
        }
        let delivery = try await InboundAgent.deliver(vector)
        #expect(delivery.isDelivered == delivered, "Swift observer received \(delivery.received.count) events")
        #expect(delivery.received.count <= 1, "one message, one event")
        if delivered, let deliveredData = expected["deliveredData"], let received = delivery.received.first ?? nil {
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
