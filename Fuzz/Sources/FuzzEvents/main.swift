@testable import CoreTypes
import FuzzSupport

/// libFuzzer target: every event payload decoder (see ``EventProperties``).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    EventProperties.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

FuzzMain.run(testOneInput: testOneInput, seeds: EventProperties.seeds)
