import CoreTypes
import Testing

@Suite struct SmokeTests {
    @Test func topicVersionIsThree() {
        #expect(CoatyProtocol.topicVersion == 3)
    }
}
