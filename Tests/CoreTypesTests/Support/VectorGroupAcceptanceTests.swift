import CoreTypes
import Foundation
import Testing
import TestSupport

/// Every group of every vector file takes a new case: the first case of the group is copied under
/// a new name into a copy of its file, the unchanged check of that group loads it from there and
/// decides it, and a further copy whose expectation is made wrong for it fails the same check
/// (`withKnownIssue`).
///
/// The groups are listed from the data, so a group without a check here fails
/// ``everyGroupInTheDataHasACheck(_:)``. sessions.json (one group, `session`) is covered by
/// `SessionVectorExtensionTests` in the integration tests, which need a broker.
@Suite struct VectorGroupAcceptanceTests {
    /// One group of one vector file.
    struct FileGroup: Sendable, CustomTestStringConvertible {
        let file: String
        let group: String
        var testDescription: String { "\(file) \(group)" }
    }

    /// How the acceptance test runs a group's unchanged check and spoils an expectation.
    struct GroupCheck: Sendable {
        let file: String
        let group: String
        /// Loads the group from `folder`, expects one case more than the vectors the tests read, and
        /// runs the group's check on the case named `name`.
        let check: @Sendable (_ folder: URL, _ name: String) async throws -> Void
        /// A copy of a case of this group whose expectation the check must reject.
        let spoil: @Sendable (JSONValue) -> JSONValue
    }

    static let files = ["topics.json", "objects.json", "events.json", "matcher.json"]

    /// The groups of the four files, in the order they first appear in the data.
    static let groupsInData: [FileGroup] = files.flatMap { file in
        let groups = ((try? VectorFiles.jsonCases(file)) ?? []).compactMap { $0["group"]?.stringValue }
        return groups.enumerated().filter { groups.firstIndex(of: $0.element) == $0.offset }.map {
            FileGroup(file: file, group: $0.element)
        }
    }

    @Test func theGroupsAreListedFromTheData() {
        #expect(Self.groupsInData.count >= 16)
        #expect(Set(Self.groupsInData.map(\.file)) == Set(Self.files))
        let sessionGroups = Set(
            ((try? VectorFiles.jsonCases("sessions.json")) ?? []).compactMap { $0["group"]?.stringValue })
        #expect(sessionGroups == ["session"], "sessions.json: only the group the integration tests extend")
    }

    @Test(arguments: groupsInData)
    func everyGroupInTheDataHasACheck(_ fileGroup: FileGroup) async throws {
        let entry = try #require(
            Self.checks.first { $0.file == fileGroup.file && $0.group == fileGroup.group },
            "no acceptance check for the group \(fileGroup.group) of \(fileGroup.file)")
        let source = try #require(try VectorFiles.jsonCases(fileGroup.file, group: fileGroup.group).first)
        let name = "added-\(fileGroup.group)-copy-of-first-case"
        let json = VectorExtensionTests.setting(source, ["name"], to: .string(name))

        let folder = try VectorExtensionTests.folder(fileGroup.file, appending: json)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await entry.check(folder, name)

        let spoiled = entry.spoil(json)
        #expect(spoiled["expected"] != json["expected"], "the spoiled copy changes the expectation")
        let wrongFolder = try VectorExtensionTests.folder(fileGroup.file, appending: spoiled)
        defer { try? FileManager.default.removeItem(at: wrongFolder) }
        await withKnownIssue("a wrong expectation fails the \(fileGroup.group) check") {
            try await entry.check(wrongFolder, name)
        }
    }

    /// A manager call written with the event's arguments instead of the event
    /// (`publishAdvertise(light)` for `publishAdvertise(AdvertiseEvent.withObject(light))`) is read
    /// by its structure and decided like the original: every visible `managerPublication` case of
    /// that shape is appended reworded so, with its own expectation.
    @Test func rewordedManagerCallsAreDecidedLikeTheOriginals() throws {
        let cases = try VectorFiles.jsonCases("topics.json", group: "managerPublication")
        var reworded: [JSONValue] = []
        for (position, json) in cases.enumerated() {
            guard let action = json["input"]?["action"]?.stringValue, let text = Self.withoutFactory(action) else {
                continue
            }
            let renamed = VectorExtensionTests.setting(json, ["name"], to: .string("added-reworded-\(position)"))
            reworded.append(VectorExtensionTests.setting(renamed, ["input", "action"], to: .string(text)))
        }
        #expect(reworded.count >= 5, "the visible cases give several manager calls to reword")
        let folder = try Self.folder("topics.json", appending: reworded)
        defer { try? FileManager.default.removeItem(at: folder) }
        let loaded = try VectorFiles.cases("topics.json", group: "managerPublication", in: folder)
        #expect(loaded.count == cases.count + reworded.count)
        for json in reworded {
            try ManagerTopicVectorTests.checkPublication(try #require(loaded.last { $0.json == json }))
        }

        let wrong = try #require(reworded.first)
        let spoiled = Self.adding("coaty/3/-/ADV/x", to: "topics")(wrong)
        let wrongFolder = try Self.folder("topics.json", appending: [spoiled])
        defer { try? FileManager.default.removeItem(at: wrongFolder) }
        let wrongCase = try #require(try VectorFiles.cases("topics.json", in: wrongFolder).last)
        withKnownIssue("a wrong topic list fails the reworded case") {
            try ManagerTopicVectorTests.checkPublication(wrongCase)
        }
    }

    /// `method(Factory.make(args))rest` as `method(args)rest`, where `Factory.make` is the factory
    /// that stands for the method's event (``ManagerCall/methods``); `nil` for any other action.
    static func withoutFactory(_ action: String) -> String? {
        guard let call = JSCall(action), let method = ManagerCall.method(of: call),
            let factory = ManagerCall.methods[method] ?? nil, case .call(let inner) = call[0], inner.callee == factory
        else { return nil }
        let opening = "\(call.callee)(\(factory)("
        guard action.hasPrefix(opening), let close = action.range(of: "))", options: .backwards),
            close.lowerBound >= action.index(action.startIndex, offsetBy: opening.count)
        else { return nil }
        let arguments = action[action.index(action.startIndex, offsetBy: opening.count)..<close.lowerBound]
        return "\(call.callee)(\(arguments))" + action[close.upperBound...]
    }

    /// A folder holding a copy of `fileName` with `newCases` appended.
    static func folder(_ fileName: String, appending newCases: [JSONValue]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("coaty-vectors-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = JSONValue.array(try VectorFiles.jsonCases(fileName) + newCases).serializedString()
        try Data(text.utf8).write(to: folder.appendingPathComponent(fileName))
        return folder
    }
}

// MARK: - The checks

extension VectorGroupAcceptanceTests {
    typealias Spoil = @Sendable (JSONValue) -> JSONValue

    // swift-format-ignore
    /// The checks, one per group, each the function the vector tests run on every case.
    static var checks: [GroupCheck] {
        [
            topic(TopicNameCase.self, { try TopicVectorTests().topicName($0) }, spoil: appending("/x", to: "topic")),
            topic(TopicFilterCase.self, { try TopicVectorTests().topicFilter($0) }, spoil: appending("/x", to: "topicFilter")),
            topic(ParseCase.self, { try TopicVectorTests().parse($0) }, spoil: spoilParse),
            topic(IsValidTopicCase.self, { try TopicVectorTests().isValidTopic($0) }, spoil: flipping("valid")),
            topic(MatchesCase.self, { TopicVectorTests().matches($0) }, spoil: flipping("matches")),
            topic(EventFilterCase.self, { TopicVectorTests().eventFilter($0) }, spoil: flipping("valid")),
            vector("topics.json", "managerPublication", { try ManagerTopicVectorTests.checkPublication($0) }, spoil: adding("coaty/3/-/ADV/x", to: "topics")),
            vector("topics.json", "managerSubscription", { try ManagerTopicVectorTests.checkSubscription($0) }, spoil: adding("coaty/3/-/ADV/+", to: "added")),
            GroupCheck(
                file: "topics.json", group: "join",
                check: { folder, name in
                    try await vector("topics.json", "join", { try ManagerTopicVectorTests.checkJoin($0) }, spoil: { $0 }).check(folder, name)
                    try await topic(JoinClientIDCase.self, { TopicVectorTests().joinClientID($0) }, spoil: { $0 }).check(folder, name)
                },
                spoil: appending("x", to: "clientId")),
            vector("objects.json", "validation", { try ObjectVectorTests.checkValidation($0) }, spoil: flipping("isObject")),
            vector("objects.json", "roundTrip", { try ObjectVectorTests.checkRoundTrip($0) }, spoil: spoilRoundTrip),
            vector("events.json", "outbound", { try OutboundEventVectorTests.check($0) }, spoil: spoilOutbound),
            vector("events.json", "inbound", { try await InboundEventVectorTests.check($0) }, spoil: flipping("delivered")),
            vector("matcher.json", "match", { try MatcherVectorTests().checkMatchCase($0) }, spoil: spoilMatch),
            vector("matcher.json", "shape", { try MatcherVectorTests().checkMatchCase($0) }, spoil: spoilMatch),
            vector("matcher.json", "context", { try MatcherVectorTests().checkContextCase($0) }, spoil: flipping("delivered")),
        ]
    }

    /// A group whose check takes a ``VectorCase``.
    static func vector(
        _ file: String, _ group: String, _ check: @escaping @Sendable (VectorCase) async throws -> Void,
        spoil: @escaping Spoil
    ) -> GroupCheck {
        GroupCheck(
            file: file, group: group,
            check: { folder, name in
                let loaded = try VectorFiles.cases(file, group: group, in: folder)
                #expect(
                    loaded.count == (try VectorFiles.cases(file, group: group).count) + 1, "the new case is counted")
                try await check(try #require(loaded.last { $0.name == name }))
            },
            spoil: spoil)
    }

    /// A group of topics.json whose check takes its decoded case type.
    static func topic<Case: TopicVectorCase>(
        _: Case.Type, _ check: @escaping @Sendable (Case) throws -> Void, spoil: @escaping Spoil
    ) -> GroupCheck {
        GroupCheck(
            file: "topics.json", group: Case.group,
            check: { folder, name in
                let loaded = try TopicVectors.cases(Case.self, in: folder)
                #expect(loaded.count == (try TopicVectors.cases(Case.self).count) + 1, "the new case is counted")
                try check(try #require(loaded.last { $0.name == name }))
            },
            spoil: spoil)
    }

    // MARK: - Wrong expectations

    static func expected(_ json: JSONValue, _ key: String, _ value: JSONValue?) -> JSONValue {
        VectorExtensionTests.setting(json, ["expected", key], to: value)
    }

    /// `expected.<key>` negated.
    static func flipping(_ key: String) -> Spoil {
        { json in expected(json, key, .bool(json["expected"]?[key]?.boolValue != true)) }
    }

    /// `expected.<key>` with `suffix` appended.
    static func appending(_ suffix: String, to key: String) -> Spoil {
        { json in expected(json, key, .string((json["expected"]?[key]?.stringValue ?? "") + suffix)) }
    }

    /// `expected.<key>` with one more element.
    static func adding(_ element: JSONValue, to key: String) -> Spoil {
        { json in expected(json, key, .array((json["expected"]?[key]?.arrayValue ?? []) + [element])) }
    }

    /// A parsed topic with another source id; "not a Coaty topic" and "throws" swapped.
    static let spoilParse: Spoil = { json in
        switch json["expected"]?["result"] {
        case .object(var fields)?:
            fields["sourceId"] = .string((fields["sourceId"]?.stringValue ?? "") + "-other")
            return expected(json, "result", .object(fields))
        case .null?:
            return VectorExtensionTests.setting(json, ["expected"], to: ["throws": "Error: spoiled"])
        default:
            return VectorExtensionTests.setting(json, ["expected"], to: ["result": .null])
        }
    }

    /// Another output text for an accepted object; acceptance for a dropped one.
    static let spoilRoundTrip: Spoil = { json in
        guard json["expected"]?["accepted"] == true else { return flipping("accepted")(json) }
        return appending(" ", to: "outputObjectText")(json)
    }

    /// One publication more where coaty-js published; no refusal where it refused.
    static let spoilOutbound: Spoil = { json in
        let refused = json["expected"]?["throws"] != nil || json["expected"]?["logs"] != nil
        guard refused else { return adding(["topic": "x", "payload": "x"], to: "publications")(json) }
        return VectorExtensionTests.setting(json, ["expected"], to: ["publications": []])
    }

    /// The other verdict where coaty-js answered; an answer where it threw.
    static let spoilMatch: Spoil = { json in
        guard json["expected"]?["matches"]?.boolValue != nil else {
            return expected(expected(json, "throws", nil), "matches", false)
        }
        return flipping("matches")(json)
    }
}
