import CoreTypes
import FuzzSupport

/// libFuzzer target: the object filter decoders and the matcher (see ``FilterProperties``).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FilterProperties.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

FuzzMain.run(testOneInput: testOneInput, seeds: FilterProperties.seeds)
