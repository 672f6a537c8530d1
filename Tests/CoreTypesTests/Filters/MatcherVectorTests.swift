import CoreTypes
import Testing
import TestSupport

/// Every case of `matcher.json` (groups `match`, `shape` and `context`), as computed by coaty-js 2.4.1.
@Suite struct MatcherVectorTests {
    @Test(arguments: try VectorFiles.cases("matcher.json", group: "match"))
    func operatorCaseGivesCoatyJSAnswer(vector: VectorCase) throws {
        try checkMatchCase(vector)
    }

    @Test(arguments: try VectorFiles.cases("matcher.json", group: "shape"))
    func filterShapeCaseGivesCoatyJSAnswer(vector: VectorCase) throws {
        try checkMatchCase(vector)
    }

    @Test(arguments: try VectorFiles.cases("matcher.json", group: "context"))
    func callContextCaseGivesCoatyJSAnswer(vector: VectorCase) throws {
        try checkContextCase(vector)
    }

    /// Checks a `context` case: the Call's filter validation, `matchesFilter`, and delivery.
    func checkContextCase(_ vector: VectorCase) throws {
        let payloadText = try #require(vector.input["callPayload"]?.stringValue)
        let payload = try JSONValue(parsing: payloadText)
        let context = vector.input["contextAbsent"] == true ? nil : vector.input["context"]

        // CallEventData.createFrom validates the filter (isContextFilterValid) and the parameters.
        var filter: ContextFilter?
        var decodeError: (any Error)?
        if let filterJSON = payload["filter"] {
            do { filter = try ContextFilter(json: filterJSON) } catch { decodeError = error }
        }
        #expect((decodeError == nil) == vector.expected["contextFilterValid"]?.boolValue)
        if let parameters = payload["parameters"], parameters.arrayValue == nil, parameters.objectValue == nil {
            // A local stand-in for the Call payload decoder (not in this area): coaty-js drops the Call.
            decodeError = decodeError ?? FilterError(code: .invalidFilter, detail: "parameters: not an array or object")
        }

        // CallEventData.matchesFilter(context), only reached when decoding succeeded.
        let outcome: Result<Bool, any Error> =
            if let decodeError { .failure(decodeError) } else {
                Result { try ObjectMatcher.callMatches(context: context, filter: filter) }
            }
        if let expected = vector.expected["matchesFilter"]?.boolValue {
            #expect(try outcome.get() == expected)
        } else {
            #expect(vector.expected["throws"] != nil, "a case without matchesFilter records a throw")
            #expect(throws: (any Error).self) { try outcome.get() }
        }

        // The observeCall observer receives the Call only when matchesFilter returned true.
        let delivered = (try? outcome.get()) == true
        #expect(delivered == vector.expected["delivered"]?.boolValue)
    }

    @Test func everyGroupHasCases() throws {
        for group in ["match", "shape", "context"] {
            #expect(try !VectorFiles.cases("matcher.json", group: group).isEmpty, "group \(group)")
        }
    }

    // MARK: - Helpers

    /// Checks a `match`/`shape` case three ways: the lenient wire evaluation (always), validation
    /// (`filterValid`), and, for valid filters, the typed model and its wire round trip.
    func checkMatchCase(_ vector: VectorCase) throws {
        let object = try Self.object(of: vector)
        let filterJSON = vector.input["filterAbsent"] == true ? nil : vector.input["filter"]
        let expectedMatch = vector.expected["matches"]?.boolValue
        let expectsThrow = vector.expected["throws"] != nil
        #expect(expectedMatch != nil || expectsThrow, "case records neither matches nor throws")

        // 1. ObjectMatcher.matchesFilter, on the filter exactly as received.
        let wire = Result { try ObjectMatcher.matches(object, filterJSON: filterJSON) }
        try expect(wire, matches: expectedMatch, orThrows: expectsThrow)

        // 2. isObjectFilterValid. Without any filter coaty-js's validation throws (quirk 1): invalid.
        let expectedValid = vector.expected["filterValid"]?.boolValue ?? false
        let typed: ObjectFilter?
        do {
            typed = try filterJSON.map { try ObjectFilter(json: $0) }
        } catch let error as FilterError {
            typed = nil
            #expect(!expectedValid, "rejected a filter coaty-js accepts: \(error)")
        }
        #expect((typed != nil) == expectedValid)

        // 3. A valid filter gives the same answer through the typed model, and survives encoding.
        guard let typed else { return }
        let viaModel = Result { try ObjectMatcher.matches(object, filter: typed) }
        try expect(viaModel, matches: expectedMatch, orThrows: expectsThrow)
        #expect(try ObjectFilter(json: typed.json) == typed)
    }

    private func expect(_ outcome: Result<Bool, any Error>, matches: Bool?, orThrows: Bool) throws {
        if orThrows {
            let error = #expect(throws: FilterError.self) { try outcome.get() }
            #expect(error?.code == .evaluationFailed)
        } else {
            #expect(try outcome.get() == matches)
        }
    }

    /// The case's object; a case that names its object only by `objectRef` borrows it from another
    /// case with the same reference.
    private static func object(of vector: VectorCase) throws -> JSONValue {
        if let object = vector.input["object"] { return object }
        let reference = try #require(vector.input["objectRef"], "case \(vector.name) has no object")
        let donor = try VectorFiles.cases("matcher.json").first {
            $0.input["objectRef"] == reference && $0.input["object"] != nil
        }
        return try #require(donor?.input["object"], "no case carries object \(reference)")
    }
}
