import CoreTypes
import FuzzSupport

/// libFuzzer target: the decode chain of Coaty objects (see ``ObjectProperties``).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    ObjectProperties.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

FuzzMain.run(testOneInput: testOneInput, seeds: ObjectProperties.seeds)
