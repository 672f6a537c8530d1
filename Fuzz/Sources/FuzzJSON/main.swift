import CoreTypes
import FuzzSupport

/// libFuzzer target: the JSON parser and writer (see ``JSONProperties``).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    JSONProperties.check(UnsafeBufferPointer(start: data, count: size))
    return 0
}

FuzzMain.run(testOneInput: testOneInput, seeds: JSONProperties.seeds)
