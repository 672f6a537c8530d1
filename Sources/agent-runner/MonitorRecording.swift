import CoreTypes
import Foundation
import Glibc

/// The file of `monitor --record`: one JSON line per event shown, with the time it was received
/// (`receivedAt`, milliseconds since 1970), its `topic`, its payload exactly (`payload` as text when
/// it is UTF-8, else `payloadBase64`) and `retain` when set. Each line is written with `write(2)`
/// at once, so a killed monitor loses nothing it showed.
final class MonitorRecording: Sendable {
    private let descriptor: Int32
    let path: String

    /// Creates (or truncates) the file.
    init(path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RunnerError.usage("--record", "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Appends one event.
    ///
    /// The line is written straight into one byte buffer (no intermediate JSON tree or strings):
    /// the recording must keep up with a monitor that prints tens of thousands of events a second.
    func record(topic: String, payload: [UInt8], retain: Bool) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + topic.utf8.count + 80)
        bytes += #"{"receivedAt":"#.utf8
        JSONWriter.writeInteger(Int((Date().timeIntervalSince1970 * 1000).rounded()), into: &bytes)
        bytes += #","topic":"#.utf8
        JSONWriter.writeString(topic, into: &bytes)
        if let text = String(validating: payload, as: UTF8.self) {
            bytes += #","payload":"#.utf8
            JSONWriter.writeString(text, into: &bytes)
        } else {
            bytes += #","payloadBase64":"#.utf8
            JSONWriter.writeString(Data(payload).base64EncodedString(), into: &bytes)
        }
        if retain { bytes += #","retain":true"#.utf8 }
        bytes += "}\n".utf8
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw RunnerError(code: .failure, message: "--record: cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}
