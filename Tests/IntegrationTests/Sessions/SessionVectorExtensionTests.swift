import CoreTypes
import Foundation
import Testing
import TestSupport

/// A scenario added to sessions.json is loaded and decided without a change to the tests: a copy
/// of the file in a temporary folder, with a scenario appended (an existing one's data under a
/// new name), is read by the same loader (folder passed explicitly). It has no script, so the
/// session test reports it as not scripted instead of failing the agent.
@Suite struct SessionVectorExtensionTests {
    @Test func aNewScenarioIsCountedAndReportedAsNotScripted() throws {
        let cases = try VectorFiles.jsonCases("sessions.json")
        let source = try #require(cases.first)
        guard case .object(var added) = source else { throw SessionCase.MalformedCase(description: "not an object") }
        added["name"] = "added-session-copy"
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-vectors-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = JSONValue.array(cases + [.object(added)]).serializedString()
        try Data(text.utf8).write(to: folder.appendingPathComponent("sessions.json"))

        let loaded = try SessionCase.all(in: folder)
        #expect(loaded.count == cases.count + 1, "the new scenario is counted")
        let session = try #require(loaded.last)
        #expect(session.name == "added-session-copy")
        #expect(!session.steps.isEmpty && !session.roles.isEmpty, "its data was read")
        #expect(SessionScripts.table[session.name] == nil)
        #expect(SessionVectorTests.notScripted(session).hasPrefix("not scripted"))
    }
}
