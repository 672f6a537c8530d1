import Glibc

/// How the running program got its Swift runtime, for the benchmark report's labels.
public enum SwiftRuntime {
    /// Whether the Swift runtime is a shared library in this process (`swift build`'s default)
    /// rather than linked into the executable (`--static-swift-stdlib`); `nil` if
    /// `/proc/self/maps` cannot be read.
    public static var isShared: Bool? {
        guard let file = fopen("/proc/self/maps", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            if strstr(line, "libswiftCore.so") != nil { return true }
        }
        return false
    }
}
