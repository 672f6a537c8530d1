import CoreTypes
import Testing

/// The reader of coaty-js call texts (``JSCall``) that the event and topic vectors use.
@Suite struct JSCallReaderTests {
    /// The JavaScript member name of a Swift enum case (`inProgress` → `InProgress`).
    static func jsName(_ swiftCase: some Any) -> String {
        let name = "\(swiftCase)"
        let exceptions = ["noBackpressure": "None"]
        return exceptions[name] ?? name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The reader's constants for `enumName`, checked member by member against the Swift enum
    /// (whose raw values are the wire values): both come from coaty-js 2.4.1's sources.
    func expectConstants<E: CaseIterable & RawRepresentable<Int>>(_ enumName: String, match _: E.Type) {
        let members = JSCall.constants.keys.filter { $0.hasPrefix(enumName + ".") }
        #expect(members.count == E.allCases.count, "\(enumName): one constant per Swift case")
        for swiftCase in E.allCases {
            let name = "\(enumName).\(Self.jsName(swiftCase))"
            #expect(JSCall.constants[name] == .int(swiftCase.rawValue), "\(name)")
        }
    }

    @Test func enumConstantsHaveCoatyJSValues() {
        expectConstants("TaskStatus", match: TaskStatus.self)
        expectConstants("LogLevel", match: LogLevel.self)
        expectConstants("IoSourceBackpressureStrategy", match: IoSourceBackpressureStrategy.self)
        expectConstants("AnnotationType", match: AnnotationType.self)
        expectConstants("AnnotationStatus", match: AnnotationStatus.self)
        // src/model/task.ts declares Pending first and Request after Cancelled; log.ts gives Fatal 50.
        #expect(JSCall.constants["TaskStatus.Pending"] == 0)
        #expect(JSCall.constants["TaskStatus.Request"] == 5)
        #expect(JSCall.constants["LogLevel.Fatal"] == 50)
        #expect(JSCall.constants["RemoteCallErrorCode.InvalidParameters"] == -32602)
    }

    @Test func constantsAreReadInCallArguments() throws {
        let call = try #require(
            JSCall("ReturnEvent.withError(RemoteCallErrorCode.InvalidParameters, 'x', {s: TaskStatus.Done})"))
        #expect(call[0] == .value(-32602))
        #expect(call[2] == .value(["s": 2]))
    }

    // MARK: - Phrases, elision and manager calls

    static func words(_ text: String) -> [String] { text.split(separator: " ").map(String.init) }

    @Test func phrasesNameFixturesWithAdjectivesAndChanges() throws {
        let context = CallContext()
        #expect(try CallPhrase.value(of: ["custom", "Light"], in: context) == .object(EventFixtures.lightJSON))
        #expect(try CallPhrase.value(of: ["core", "Task"], in: context) == .object(EventFixtures.taskJSON))
        #expect(try CallPhrase.value(of: ["CoatyObject"], in: context) == .object(EventFixtures.coreObjJSON))
        #expect(try CallPhrase.value(of: ["src"], in: context) == .string(EventFixtures.ioSource))
        #expect(try CallPhrase.value(of: ["actor"], in: context) == .string(EventFixtures.ioActor))
        var task = EventFixtures.taskJSON
        task["objectType"] = "com.example.MyTask"
        task["status"] = 2
        let changed = try CallPhrase.value(
            of: Self.words("Task with objectType com.example.MyTask and status 2"), in: context)
        #expect(changed == .object(task))
    }

    @Test func phrasesOutsideTheVocabularyAreUnreadable() throws {
        let context = CallContext()
        #expect(throws: CallPhrase.Unreadable.self) { try CallPhrase.value(of: ["shiny", "Light"], in: context) }
        #expect(throws: CallPhrase.Unreadable.self) { try CallPhrase.value(of: ["custom", "Task"], in: context) }
        #expect(throws: CallPhrase.Unreadable.self) { try CallPhrase.value(of: ["Lamp"], in: context) }
        // `object` is the injected request's object: without a request there is none.
        #expect(throws: CallPhrase.Unreadable.self) { try CallPhrase.value(of: ["object"], in: context) }
        let update = CallContext(requestPayload: ["object": .object(EventFixtures.otherJSON)])
        #expect(try CallPhrase.value(of: ["object"], in: update) == .object(EventFixtures.otherJSON))
    }

    @Test func phrasesAreReadInCallArguments() throws {
        let call = try #require(JSCall("UpdateEvent.withObject(Task with objectType com.example.MyTask, {n: 1})"))
        #expect(call[0] == .phrase(Self.words("Task with objectType com.example.MyTask")))
        #expect(call[1] == .value(["n": 1]))
        #expect(JSCall("request arriving on another namespace (only possible when subscribed)") == nil)
    }

    @Test func elisionTakesTheUsualArgumentsFromItsPosition() throws {
        let call = try #require(JSCall("AssociateEvent.with('hall', ...)"))
        let usual = try #require(SwiftEquivalent.usualArguments["AssociateEvent.with"])
        let resolved = try call.resolved(in: CallContext(), usual: usual)
        #expect(resolved.arguments.count == 4)
        #expect(resolved[0] == .value("hall"))
        #expect(resolved[1] == .value(.string(EventFixtures.ioSource)))
        #expect(resolved[3] == .value(.string(CallContext().scope.ioRoute(forIoSource: EventFixtures.ioSource))))
    }

    @Test func managerCallsStandForTheEventTheySend() throws {
        let bare = try #require(JSCall("publishAdvertise(custom Light)"))
        #expect(ManagerCall.eventCall(bare)?.callee == "AdvertiseEvent.withObject")
        let wrapped = try #require(JSCall("publishUpdate(UpdateEvent.withObject(light)).subscribe()"))
        #expect(ManagerCall.eventCall(wrapped)?.callee == "UpdateEvent.withObject")
        #expect(ManagerCall.subscribes(wrapped))
        let raw = try #require(JSCall("cm.publishRaw('t/1', 'v', true)"))
        guard case .raw(let event)? = try SwiftEquivalent.event(for: raw) else {
            Issue.record("publishRaw(topic, value, shouldRetain) is a Raw event")
            return
        }
        #expect(event.topic == "t/1" && event.retain)
        // publishDiscover takes only an event: a bare argument is not guessed.
        let discover = try #require(JSCall("publishDiscover(obj1)"))
        #expect(ManagerCall.eventCall(discover) == nil)
        #expect(ManagerCall.isNote("(none; subscriptions made on start)"))
        #expect(!ManagerCall.isNote("observeDiscover()"))
    }
}
