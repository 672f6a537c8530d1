import CLibFuzzer
import Glibc

/// How a fuzz target starts: libFuzzer, or the seed writer.
///
/// Every target's `main.swift` calls ``run(arguments:testOneInput:seeds:)``. With
/// `--write-seeds <vectors-dir> <output-dir>` as its arguments the target writes its seed corpus,
/// derived from the conformance vectors, and exits; with any other arguments it hands them to
/// libFuzzer (`-max_total_time=60 corpus/ seeds/` and so on).
public enum FuzzMain {
    /// Runs the target and exits the process.
    ///
    /// - Parameters:
    ///   - testOneInput: The target's `LLVMFuzzerTestOneInput`.
    ///   - seeds: Builds the seed inputs from the vectors.
    public static func run(
        testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt,
        seeds: (Vectors) throws -> [[UInt8]]
    ) -> Never {
        let arguments = CommandLine.arguments
        if arguments.count >= 2, arguments[1] == "--write-seeds" {
            guard arguments.count == 4 else {
                printError("usage: \(arguments[0]) --write-seeds <vectors-dir> <output-dir>")
                exit(2)
            }
            do {
                let vectors = try Vectors(directory: arguments[2])
                let written = try SeedWriter.write(try seeds(vectors), to: arguments[3])
                print("\(arguments[0]): wrote \(written) seeds to \(arguments[3])")
                exit(0)
            } catch {
                printError("\(arguments[0]): cannot write seeds: \(error)")
                exit(1)
            }
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}

/// Writes a line to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
