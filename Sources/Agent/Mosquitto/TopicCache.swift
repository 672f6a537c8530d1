package import CoreTypes
import Glibc
import Synchronization

/// The one cache of a connection's inbound topics: the name as a `String`, made once while the same
/// topic repeats (a stream of one object type's Advertises, of one peer's IO values), and the
/// parsed Coaty topic of that name, with the longer levels of other names reused
/// (``TopicLevelCache``).
///
/// The connection's callback makes the name (``name(of:)``) on the network thread; the agent's
/// routing, on the same thread, asks for the parsed topic (``coatyTopic(named:)``).
package final class TopicCache: Sendable {
    /// What a topic name is to the agent.
    package enum Parsed: Sendable {
        /// Not a Coaty topic (a raw or external IO topic).
        case notCoaty
        case coaty(CoatyTopic)
        /// It starts with `coaty/` but cannot be read.
        case malformed(TopicParseError)
    }

    private struct State {
        var lastName = ""
        var parsedName: String?
        var parsed = Parsed.notCoaty
        var levels = TopicLevelCache()
    }

    private let state = Mutex(State())

    package init() {}

    /// The topic as a string: the last one made when this is the same topic.
    func name(of cTopic: UnsafePointer<CChar>) -> String {
        state.withLock { state in
            let length = strlen(cTopic)
            let isSame =
                state.lastName.utf8.count == length
                && state.lastName.utf8.withContiguousStorageIfAvailable { bytes in
                    guard let base = bytes.baseAddress else { return length == 0 }
                    return memcmp(base, cTopic, length) == 0
                } == true
            if !isSame { state.lastName = String(cString: cTopic) }
            return state.lastName
        }
    }

    /// The Coaty topic `name` is: parsed once while the same name repeats.
    package func coatyTopic(named name: String) -> Parsed {
        state.withLock { state in
            if let parsedName = state.parsedName, parsedName == name { return state.parsed }
            let parsed: Parsed
            do throws(TopicParseError) {
                parsed = try CoatyTopic(parsing: name, levels: &state.levels).map(Parsed.coaty) ?? .notCoaty
            } catch {
                parsed = .malformed(error)
            }
            state.parsedName = name
            state.parsed = parsed
            return parsed
        }
    }
}
