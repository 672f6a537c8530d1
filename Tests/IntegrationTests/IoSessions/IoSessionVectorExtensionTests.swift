import CoreTypes
import Foundation
import Testing
import TestSupport

/// A scenario added to io-sessions.json is replayed with no change to the tests: a copy of the
/// file in a temporary folder, with a scenario appended (an existing one's data under a new name),
/// is read by the same loader and replayed; a copy whose expectations are made wrong fails.
@Suite(.timeLimit(.minutes(1)))
struct IoSessionVectorExtensionTests {
    /// A copy of io-sessions.json with `added` appended, in a fresh folder, loaded back.
    static func loaded(appending added: JSONValue) throws -> IoSessionCase {
        let cases = try VectorFiles.jsonCases("io-sessions.json")
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-vectors-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = JSONValue.array(cases + [added]).serializedString()
        try Data(text.utf8).write(to: folder.appendingPathComponent("io-sessions.json"))
        let loaded = try IoSessionCase.all(in: folder)
        #expect(loaded.count == cases.count + 1, "the new scenario is counted")
        return try #require(loaded.last)
    }

    /// The last scenario of the file (the one with a rule condition) under `name`.
    static func copyOfLastScenario(named name: String) throws -> JSONObject {
        let source = try #require(try VectorFiles.jsonCases("io-sessions.json").last)
        guard case .object(var added) = source else { throw SessionCase.MalformedCase(description: "not an object") }
        added["name"] = .string(name)
        return added
    }

    @Test func anAddedScenarioIsReplayed() async throws {
        let session = try Self.loaded(appending: .object(try Self.copyOfLastScenario(named: "added-io-session-copy")))
        #expect(session.name == "added-io-session-copy")
        try await IoSessionVectorTests.replay(session)
    }

    @Test func anAddedScenarioWithWrongExpectationsFails() async throws {
        var added = try Self.copyOfLastScenario(named: "added-io-session-spoiled")
        // Every observed IO value becomes another number.
        guard case .object(var expected) = added["expected"] ?? .null, let observed = expected["observed"]?.arrayValue
        else { throw SessionCase.MalformedCase(description: "no expected.observed") }
        expected["observed"] = .array(
            observed.map { entry in
                guard case .object(var members) = entry, members["via"] == "IoActorController.observeIoValue",
                    members["value"]?.isNumber == true
                else { return entry }
                members["value"] = 99.5
                return .object(members)
            })
        added["expected"] = .object(expected)
        let session = try Self.loaded(appending: .object(added))
        await withKnownIssue("the spoiled scenario expects values that were never published") {
            try await IoSessionVectorTests.replay(session)
        }
    }
}
