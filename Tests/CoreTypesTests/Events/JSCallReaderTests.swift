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
        let call = try #require(JSCall("ReturnEvent.withError(RemoteCallErrorCode.InvalidParameters, 'x', {s: TaskStatus.Done})"))
        #expect(call[0] == .value(-32602))
        #expect(call[2] == .value(["s": 2]))
    }
}
