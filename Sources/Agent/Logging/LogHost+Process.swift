public import CoreTypes
import Glibc

extension LogHost {
    /// This process: its id and the machine's host name.
    public static func currentProcess() -> LogHost {
        var name = [CChar](repeating: 0, count: 256)
        let hostname =
            gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        return LogHost(pid: Double(getpid()), hostname: hostname)
    }
}
