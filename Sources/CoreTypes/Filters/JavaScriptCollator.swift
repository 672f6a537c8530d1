import Synchronization
import _FoundationICU

/// Compares strings as coaty-js's `new Intl.Collator()` does in V8: ICU's root collation (what en-US
/// resolves to) at tertiary strength, with normalization on, as V8 sets it.
///
/// Letters and digits decide first (`"Alpha" < "beta"`, `"10" < "9"`, `"ﬁ"` as `"fi"`, Hangul before
/// Han), then accents, then case and variants (`"a" < "A" < "ⓐ"`). The answers come from the
/// toolchain's ICU (76.1 in Swift 6.3.1; Node.js 20 has 78.2, which agrees on the tested table).
enum JavaScriptCollator {
    /// Returns a negative number, zero or a positive number as `a` sorts before, equal to or
    /// after `b`.
    static func compare(_ a: String, _ b: String) -> Int {
        if a.hasSameCodeUnits(as: b) { return 0 }
        return root.withLock { collator in
            var (a, b) = (a, b)  // withUTF8 is mutating; it copies only a string that is not contiguous UTF-8
            let handle = collator
            return a.withUTF8 { x in
                b.withUTF8 { y in
                    var status = U_ZERO_ERROR
                    let result = swift_ucol_strcollUTF8(
                        handle, chars(x), Int32(clamping: x.count), chars(y), Int32(clamping: y.count), &status)
                    return Int(result.rawValue)
                }
            }
        }
    }

    /// ICU's root collator with normalization on, opened on first use. ICU allows concurrent
    /// compares on one collator, but a lock costs little next to a compare and needs no promise
    /// about the C library.
    private static let root = Mutex(openRootCollator())

    private static func openRootCollator() -> OpaquePointer {
        var status = U_ZERO_ERROR
        let opened = swift_ucol_open("", &status)
        swift_ucol_setAttribute(opened, UCOL_NORMALIZATION_MODE, UCOL_ON, &status)
        // The root collation is built into the toolchain's ICU library; failing here means a broken
        // installation, and no comparison would be right without it.
        guard let opened, status.rawValue <= U_ZERO_ERROR.rawValue else {
            fatalError("ICU root collator unavailable (UErrorCode \(status.rawValue))")
        }
        return opened
    }

    private static func chars(_ buffer: UnsafeBufferPointer<UInt8>) -> UnsafePointer<CChar>? {
        UnsafeRawPointer(buffer.baseAddress)?.assumingMemoryBound(to: CChar.self)
    }
}
