import CoreTypes
import Testing
import TestSupport

/// Every `outbound` case of events.json: the Swift equivalent of the coaty-js call must publish
/// exactly the bytes coaty-js published, or throw where coaty-js threw or dropped the event.
///
/// `input.call` is read by ``JSCall`` and mapped to Swift by the factory table in
/// ``SwiftEquivalent``; a call that Swift's types rule out is cancelled with the reason.
@Suite struct OutboundEventVectorTests {
    static let cases = (try? VectorFiles.cases("events.json", group: "outbound")) ?? []

    @Test func vectorsAreLoaded() {
        #expect(Self.cases.count >= 82)
    }

    @Test(arguments: cases)
    func publishesWhatCoatyJSPublishes(_ vector: VectorCase) throws {
        try Self.check(vector)
    }

    /// Checks one outbound case (also for vectors from another folder).
    static func check(_ vector: VectorCase) throws {
        let text = try #require(vector.input["call"]?.stringValue)
        guard let call = JSCall(text) else {
            Issue.record("cannot read the coaty-js call \(text)")
            return
        }
        var agent = VectorAgent(vector)
        let outcome: Result<[Publication], any Error>
        do {
            guard let event = try SwiftEquivalent.event(for: call, in: agent.callContext) else {
                Issue.record("no Swift equivalent mapped for the coaty-js factory \(call.callee)")
                return
            }
            outcome = .success(try agent.publications(of: event))
        } catch let inexpressible as Inexpressible {
            try inexpressible.excludeTestCase()
        } catch let unreadable as CallPhrase.Unreadable {
            Issue.record("no Swift equivalent mapped for \(text): \(unreadable)")
            return
        } catch {
            outcome = .failure(error)
        }
        let expected = vector.expected
        let expectedPublications = expected["publications"]?.arrayValue ?? []
        let coatyJSRefused = expected["throws"] != nil || (expected["logs"] != nil && expectedPublications.isEmpty)
        switch outcome {
        case .success(let publications):
            #expect(!coatyJSRefused, "coaty-js refused this event: \(expected["throws"] ?? expected["logs"] ?? "")")
            expectPublications(publications, equal: expectedPublications)
        case .failure(let error):
            #expect(coatyJSRefused, "Swift threw \(error) where coaty-js published")
            if let code = Self.expectedCode(for: expected) {
                #expect(
                    (error as? EventError)?.code == code, "coaty-js: \(expected["throws"] ?? expected["logs"] ?? "")")
            }
        }
    }

    /// The error code that corresponds to coaty-js's error text, where it names a specific check.
    /// ("arguments not valid" covers every data check, so any error passes for it.)
    static func expectedCode(for expected: JSONValue) -> EventError.Code? {
        let text = expected["throws"]?.stringValue ?? expected["logs"]?[0]?.stringValue ?? ""
        let table: [(String, EventError.Code)] = [
            ("doesn't match", .responseMismatch), ("not contained in", .responseMismatch),
            ("invalid objectType", .invalidEventFilter), ("not a valid channel identifier", .invalidEventFilter),
            ("not a valid operation name", .invalidEventFilter), ("ioContextName", .invalidEventFilter),
            ("Raw publication topic is invalid", .invalidTopic), ("IO value data format", .incompatibleIoValue),
        ]
        return table.first { text.contains($0.0) }?.1
    }
}
