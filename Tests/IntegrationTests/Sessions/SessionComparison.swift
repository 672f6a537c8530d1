import CoreTypes

/// Compares a Swift run with a capture: correlation ids, messages per publisher, observations.
enum SessionComparison {
    /// Maps each correlation id the Swift agents generated to the placeholder (`<corr-N>`) the
    /// vector has in the same place.
    ///
    /// The vector numbers placeholders by first appearance in the capture. A placeholder first
    /// appears in a request, the k-th message of its requester; the id of the k-th message that
    /// the same Swift agent published gets that placeholder. Taking positions per publisher, not
    /// in overall order, keeps the mapping independent of how messages of different publishers
    /// interleave. All other uses of an id (the responses) must then agree, which the message
    /// comparison checks.
    static func placeholders(
        expected: [SessionCase.Message], recorded: [SessionCase.Message]
    ) -> (mapping: [String: String], problems: [String]) {
        let recordedByPublisher = byPublisher(recorded)
        var positions: [String: Int] = [:]
        var mapping: [String: String] = [:]
        var seen: Set<String> = []
        var problems: [String] = []
        for message in expected {
            let publisher = message.publisher
            let position = positions[publisher, default: 0]
            positions[publisher] = position + 1
            guard let placeholder = message.correlationID, placeholder.hasPrefix("<corr-"),
                seen.insert(placeholder).inserted
            else { continue }
            let ours = recordedByPublisher[publisher] ?? []
            guard position < ours.count, let id = ours[position].correlationID else {
                problems.append(
                    "\(placeholder) first appears in message \(position + 1) of \(publisher), "
                        + "but that Swift message has no correlation id: \(message)")
                continue
            }
            if let other = mapping[id] {
                problems.append("correlation id \(id) was reused for \(other) and \(placeholder)")
                continue
            }
            mapping[id] = placeholder
            if !isLowercaseUUIDv4(id) {
                problems.append(
                    "correlation id \(id) (\(placeholder)) is not a lowercase UUID v4, as coaty-js makes them")
            }
        }
        return (mapping, problems)
    }

    /// The message with its correlation id replaced by its placeholder.
    static func normalized(_ message: SessionCase.Message, _ mapping: [String: String]) -> SessionCase.Message {
        guard let id = message.correlationID, let placeholder = mapping[id] else { return message }
        var levels = message.topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        levels[5] = placeholder
        return SessionCase.Message(
            topic: levels.joined(separator: "/"), payload: message.payload, retain: message.retain, qos: message.qos)
    }

    /// The messages of each publisher, in order.
    static func byPublisher(_ messages: [SessionCase.Message]) -> [String: [SessionCase.Message]] {
        Dictionary(grouping: messages, by: \.publisher)
    }

    /// What each (agent, via, source) received, in order: an order is only defined per publisher.
    static func byObserverAndSource(
        _ observations: [SessionCase.Observation]
    ) -> [String: [SessionCase.Observation]] {
        Dictionary(grouping: observations) { "\($0.agent) \($0.via) from \($0.sourceID)" }
    }

    /// Whether `id` looks like the ids coaty-js generates (`uuid` v4, lower case).
    static func isLowercaseUUIDv4(_ id: String) -> Bool {
        let characters = Array(id.utf8)
        guard characters.count == 36 else { return false }
        for (index, character) in characters.enumerated() {
            switch index {
            case 8, 13, 18, 23:
                guard character == UInt8(ascii: "-") else { return false }
            case 14:
                guard character == UInt8(ascii: "4") else { return false }
            case 19:
                guard "89ab".utf8.contains(character) else { return false }
            default:
                guard "0123456789abcdef".utf8.contains(character) else { return false }
            }
        }
        return true
    }
}
