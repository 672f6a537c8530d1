import CoreTypes
import Foundation
import Testing
import TestSupport

/// A case added to a vector file is checked without any change to the tests: each file is copied
/// into a temporary folder with one new case appended, built from an existing case's data under a
/// new name, and the same loaders and checks the vector tests use read that folder (passed
/// explicitly, since `COATY_VECTORS_DIR` is process-wide and tests run in parallel). A further
/// copy whose new case carries a deliberately wrong expectation must fail the same check.
///
/// The source cases are picked by their data (group, setup, verdict), never by name. Changed
/// inputs take their expectation from another case that shows the same coaty-js behaviour.
/// sessions.json is covered by `SessionVectorExtensionTests` in the integration tests; every
/// other group of every file is covered by ``VectorGroupAcceptanceTests``.
@Suite struct VectorExtensionTests {
    /// A folder holding a copy of `fileName` with `newCase` appended.
    static func folder(_ fileName: String, appending newCase: JSONValue) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-vectors-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cases = try VectorFiles.jsonCases(fileName)
        let text = JSONValue.array(cases + [newCase]).serializedString()
        try Data(text.utf8).write(to: folder.appendingPathComponent(fileName))
        return folder
    }

    /// `json` with `value` at the member path `keys` (`nil` removes it).
    static func setting(_ json: JSONValue, _ keys: [String], to value: JSONValue?) -> JSONValue {
        guard let key = keys.first, case .object(var members) = json else { return value ?? .null }
        members[key] = keys.count == 1 ? value : setting(members[key] ?? [:], Array(keys.dropFirst()), to: value)
        return .object(members)
    }

    /// The case appended to `fileName` in a fresh folder, loaded back by the tests' loader.
    static func appended(_ fileName: String, _ newCase: JSONValue, group: String) throws -> VectorCase {
        let folder = try folder(fileName, appending: newCase)
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = try VectorFiles.cases(fileName, group: group, in: folder)
        #expect(loaded.count == (try VectorFiles.cases(fileName, group: group).count) + 1, "the new case is counted")
        return try #require(loaded.last { $0.name == newCase["name"]?.stringValue })
    }

    @Test func aNewInboundCaseIsDecidedByTheAgent() async throws {
        let cases = try VectorFiles.cases("events.json", group: "inbound")
        // A delivered Advertise: the same message on another namespace level is delivered too
        // (coaty-js ignores the namespace of inbound topics, README quirk 8).
        let source = try #require(
            cases.first {
                $0.expected["delivered"] == true && $0.input["topic"]?.stringValue?.contains("/-/ADV:") == true
            })
        let topic = try #require(source.input["topic"]?.stringValue).replacingAll("/-/ADV:", with: "/plant-9/ADV:")
        var json = Self.setting(source.json, ["name"], to: "added-inbound-advertise-other-namespace")
        json = Self.setting(json, ["input", "topic"], to: .string(topic))
        try await InboundEventVectorTests.check(try Self.appended("events.json", json, group: "inbound"))

        let wrong = Self.setting(json, ["expected", "delivered"], to: false)
        let wrongCase = try Self.appended("events.json", wrong, group: "inbound")
        await withKnownIssue("a wrong delivered verdict fails the check") {
            try await InboundEventVectorTests.check(wrongCase)
        }
    }

    @Test func aNewRoundTripCaseIsChecked() throws {
        let cases = try VectorFiles.cases("objects.json", group: "roundTrip")
        let source = try #require(cases.first { $0.expected["accepted"] == true })
        let json = Self.setting(source.json, ["name"], to: "added-roundtrip")
        try ObjectVectorTests.checkRoundTrip(try Self.appended("objects.json", json, group: "roundTrip"))

        let output = try #require(source.expected["outputObjectText"]?.stringValue)
        let wrong = Self.setting(json, ["expected", "outputObjectText"], to: .string(output + " "))
        let wrongCase = try Self.appended("objects.json", wrong, group: "roundTrip")
        withKnownIssue("a wrong output text fails the check") {
            try ObjectVectorTests.checkRoundTrip(wrongCase)
        }
    }

    @Test func aNewMatcherCaseIsChecked() throws {
        let cases = try VectorFiles.cases("matcher.json", group: "match")
        let source = try #require(cases.first { $0.expected["matches"]?.boolValue != nil })
        let json = Self.setting(source.json, ["name"], to: "added-match")
        try MatcherVectorTests().checkMatchCase(try Self.appended("matcher.json", json, group: "match"))

        let flipped = source.expected["matches"]?.boolValue == false
        let wrong = Self.setting(json, ["expected", "matches"], to: .bool(flipped))
        let wrongCase = try Self.appended("matcher.json", wrong, group: "match")
        withKnownIssue("a wrong match verdict fails the check") {
            try MatcherVectorTests().checkMatchCase(wrongCase)
        }
    }

    @Test func aNewTopicCaseIsChecked() throws {
        let cases = try VectorFiles.cases("topics.json", group: "matches")
        let source = try #require(cases.first)
        let json = Self.setting(source.json, ["name"], to: "added-matches")
        let folder = try Self.folder("topics.json", appending: json)
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = try TopicVectors.cases(MatchesCase.self, in: folder)
        #expect(loaded.count == cases.count + 1, "the new case is counted")
        TopicVectorTests().matches(try #require(loaded.last))

        let flipped = source.expected["matches"]?.boolValue == false
        let wrongFolder = try Self.folder("topics.json", appending: Self.setting(json, ["expected", "matches"], to: .bool(flipped)))
        defer { try? FileManager.default.removeItem(at: wrongFolder) }
        let wrongCase = try #require(try TopicVectors.cases(MatchesCase.self, in: wrongFolder).last)
        withKnownIssue("a wrong match verdict fails the check") {
            TopicVectorTests().matches(wrongCase)
        }
    }
}
