import CoreTypes
import Glibc
import Synchronization

/// How results are printed.
enum OutputMode: String, Sendable {
    /// Aligned, readable lines (the default on a terminal).
    case text
    /// One JSON object per line (the default when stdout is not a terminal).
    case json
}

/// Where a command prints: result lines on stdout, flushed one by one (pipes included), and
/// progress on stderr when it is a terminal and the output is text.
///
/// All writes go through one lock, so a progress line is cleared before a result line appears.
final class Output: Sendable {
    let mode: OutputMode
    /// Whether progress is shown: text mode with stderr on a terminal.
    let showsProgress: Bool
    private let progressLine = Mutex(false)

    init(mode: OutputMode?) {
        let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        self.mode = mode ?? (stdoutIsTerminal ? .text : .json)
        self.showsProgress = self.mode == .text && isatty(STDERR_FILENO) == 1
    }

    /// The terminal's width in columns, or 120 when stdout is not a terminal.
    var width: Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 20 else { return 120 }
        return Int(size.ws_col)
    }

    /// Prints one result line and flushes it.
    func line(_ text: String) {
        writeLine(text, to: STDOUT_FILENO)
    }

    /// Prints one JSON object as a line.
    func json(_ object: JSONObject) {
        line(JSONValue.object(object).serializedString())
    }

    /// Shows (or with `nil` clears) a one-line progress message on stderr; nothing unless ``showsProgress``.
    func progress(_ text: String?) {
        guard showsProgress else { return }
        progressLine.withLock { isShowing in
            if let text {
                Self.write("\r\u{1B}[K" + text, to: STDERR_FILENO)
                isShowing = true
            } else if isShowing {
                Self.write("\r\u{1B}[K", to: STDERR_FILENO)
                isShowing = false
            }
        }
    }

    /// Prints a line on stderr (after clearing progress).
    func note(_ text: String) {
        writeLine(text, to: STDERR_FILENO)
    }

    /// Clears the progress line, if shown, then writes `text` and a newline to `descriptor`.
    private func writeLine(_ text: String, to descriptor: Int32) {
        progressLine.withLock { isShowing in
            if isShowing {
                Self.write("\r\u{1B}[K", to: STDERR_FILENO)
                isShowing = false
            }
            Self.write(text + "\n", to: descriptor)
        }
    }

    /// Writes the text with `write(2)`: nothing is buffered, so each line leaves at once.
    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // stdout closed (EPIPE) or similar: nothing sensible left to do with the line
                }
                offset += written
            }
        }
    }

    /// Writes one line to stderr; for errors before any ``Output`` exists.
    static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }
}
