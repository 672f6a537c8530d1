import CoreTypes
import FuzzSupport

/// The properties of filter decoding, matching and ordering for every input.
///
/// The input is a JSON array `[filter, object, object, …]`; any other JSON value is a filter that is
/// matched against itself and a fixed object.
///
/// - A decoded ``ObjectFilter``, ``ContextFilter`` or join condition list encodes to JSON that
///   decodes to an equal value, through JSON text too, and its text is a fixed point.
/// - An object filter that decodes is also a valid context filter with the same conditions.
/// - For every object, the typed matcher gives the answer of the wire evaluator
///   (`ObjectMatcher.matches(_:filterJSON:)`) on the input filter and on the re-encoded one, and both
///   throw together; `callMatches` follows its table.
/// - A dotted property path splits at every `.` byte, as in JavaScript.
/// - `apply(to:)` keeps exactly the matching objects, in an order that sorting again does not
///   change, and pages them exactly as `skip`/`take` say.
enum FilterProperties {
    static let sample: JSONValue = [
        "objectId": "8d2f4b6a", "objectType": "com.example.Sensor", "coreType": "CoatyObject", "name": "Alpha",
        "n": 42, "f": 3.5, "s": "hello", "b": true, "nul": nil, "arr": [1, "1", nil], "nested": ["x": ["y": 1]],
    ]

    static func check(_ input: UnsafeBufferPointer<UInt8>) {
        guard let value = try? JSONValue(parsing: input) else { return }
        let filterJSON: JSONValue
        let objects: [JSONValue]
        if case .array(let elements) = value, let first = elements.first, elements.count > 1 {
            filterJSON = first
            objects = Array(elements.dropFirst())
        } else {
            filterJSON = value
            objects = [value, sample]
        }
        let objectFilter = try? ObjectFilter(json: filterJSON)
        let contextFilter = try? ContextFilter(json: filterJSON)
        if let objectFilter {
            checkRoundTrip(objectFilter, json: \.json) { try ObjectFilter(json: $0) }
            require(
                contextFilter?.conditions == objectFilter.conditions,
                "a valid object filter is not a context filter with the same conditions: \(filterJSON)")
            for object in objects {
                compare(typed: { try ObjectMatcher.matches(object, filter: objectFilter) }, object, filterJSON)
                compare(typed: { try ObjectMatcher.matches(object, filter: objectFilter) }, object, objectFilter.json)
            }
            checkApply(objectFilter, objects.compactMap(\.objectValue))
        }
        if let contextFilter {
            checkRoundTrip(contextFilter, json: \.json) { try ContextFilter(json: $0) }
            for object in objects {
                compare(typed: { try ObjectMatcher.matches(object, filter: contextFilter) }, object, filterJSON)
                compare(
                    typed: { try ObjectMatcher.callMatches(context: object, filter: contextFilter) }, object, filterJSON
                )
            }
            require((try? ObjectMatcher.callMatches(context: nil, filter: contextFilter)) == true, "no context, filter")
        }
        if let joins = try? ObjectJoinCondition.list(json: filterJSON) {
            checkRoundTrip(joins, json: ObjectJoinCondition.json(for:)) { try ObjectJoinCondition.list(json: $0) }
        }
        checkPropertyPaths(in: filterJSON)
        for object in objects {
            _ = try? ObjectMatcher.matches(object, filterJSON: filterJSON)
            require((try? ObjectMatcher.callMatches(context: object, filter: nil)) == false, "context, no filter")
        }
    }

    /// A dotted property path splits at every `.` byte, as JavaScript's `split(".")` does at every
    /// `.` code unit (a combining mark after the dot does not glue it to the next name).
    private static func checkPropertyPaths(in value: JSONValue) {
        switch value {
        case .string(let text):
            let model = Array(text.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            let components = PropertyPath(text).components
            require(
                components.count == model.count && zip(components, model).allSatisfy { $0.utf8.elementsEqual($1.utf8) },
                "path '\(text)' splits into \(components), JavaScript into \(model)")
        case .array(let elements): elements.prefix(16).forEach(checkPropertyPaths)
        case .object(let object): object.values.prefix(16).forEach(checkPropertyPaths)
        default: break
        }
    }

    private static func checkRoundTrip<F: Equatable>(
        _ filter: F, json: (F) -> JSONValue, decode: (JSONValue) throws -> F
    ) {
        let encoded = json(filter)
        let text = encoded.serialized()
        do {
            let again = try decode(encoded)
            require(again == filter, "\(F.self) changed in a round trip: \(excerpt(text))")
            // Text turns an integral double operand into an integer, so compare from the first text on.
            let fromText = try decode(JSONValue(parsing: text))
            let secondText = json(fromText).serialized()
            require(secondText == text, "\(F.self) text is not a fixed point: \(excerpt(text))")
            let fromSecondText = try decode(JSONValue(parsing: secondText))
            require(fromSecondText == fromText, "\(F.self) changed in a round trip through text: \(excerpt(text))")
        } catch {
            violated("encoded \(F.self) does not decode: \(error)\n\(excerpt(text))")
        }
    }

    /// The typed matcher and the wire evaluator agree, throwing included.
    private static func compare(typed: () throws -> Bool, _ object: JSONValue, _ filterJSON: JSONValue) {
        let typedResult = Result(catching: typed)
        let wireResult = Result { try ObjectMatcher.matches(object, filterJSON: filterJSON) }
        switch (typedResult, wireResult) {
        case (.success(let a), .success(let b)):
            require(a == b, "typed matcher says \(a), wire evaluator \(b)\nfilter \(filterJSON)\nobject \(object)")
        case (.failure, .failure):
            break
        default:
            violated("typed \(typedResult), wire \(wireResult)\nfilter \(filterJSON)\nobject \(object)")
        }
    }

    private static func checkApply(_ filter: ObjectFilter, _ objects: [JSONObject]) {
        guard let page = try? filter.apply(to: objects) else {
            require(objects.contains { (try? ObjectMatcher.matches($0, filter: filter)) == nil }, "apply threw")
            return
        }
        let unpaged = ObjectFilter(conditions: filter.conditions, orderByProperties: filter.orderByProperties)
        guard let all = try? unpaged.apply(to: objects) else { violated("apply throws without paging") }
        let matching = objects.filter { (try? ObjectMatcher.matches($0, filter: filter)) == true }
        require(all.count == matching.count, "apply kept \(all.count) of \(matching.count) matching objects")
        require(all.allSatisfy { object in matching.contains(object) }, "apply kept an object that does not match")
        require((try? unpaged.apply(to: all)) == all, "sorting the sorted result changes its order")
        let skip = filter.skip ?? 0
        let take = filter.take ?? 0
        let expected = all.enumerated().compactMap { position, object -> JSONObject? in
            let (index, overflow) = position.subtractingReportingOverflow(skip)
            return !overflow && index >= 0 && (take == 0 || index < take) ? object : nil
        }
        require(page == expected, "skip \(skip) take \(take) paged \(page.count) of \(all.count) objects wrongly")
    }
}
