@testable import CoreTypes
import FuzzSupport

/// libFuzzer target: the topic grammar and MQTT matching (see ``TopicProperties``).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    TopicProperties.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

FuzzMain.run(testOneInput: testOneInput, seeds: TopicProperties.seeds)
