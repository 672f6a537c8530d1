import CoatyStorage
import CoreTypes

/// The objects and queries every backend is measured with.
struct Workload {
    /// Rooms the objects are spread over (a condition on `room` finds a tenth of them).
    static let rooms = (0..<10).map { "room-\($0)" }

    /// The JSON text of object `index`, as an Advertise would carry it: a light with a name, a
    /// room, a number, a level, a Boolean and a nested battery.
    static func objectText(_ index: Int, tag: String) -> String {
        let id = "\(tag)-\(index)"
        let level = Double(index % 1000) + 0.5
        return """
            {"objectType":"com.example.Light","coreType":"CoatyObject","objectId":"\(id)",\
            "name":"Light \(index)","room":"\(rooms[index % 10])","n":\(index % 17),\
            "level":\(level),"on":\(index % 2 == 0),"battery":{"level":\(index % 100)}}
            """
    }

    /// The queries, each as an `ObjectFilter` for the library and by name for the hand-written SQL.
    enum Query: String, CaseIterable {
        /// Two equalities (a string and a number): about 1/170 of the objects, in insertion order.
        case equalities = "room = room-3 and n = 7"
        /// A range ordered by a number, the first 100.
        case rangeOrdered = "level > 990, by level desc, take 100"
        /// A prefix match on a string: about a dozen objects.
        case prefix = "name like 'Light 12345%'"

        var filter: ObjectFilter {
            get throws {
                let text: String
                switch self {
                case .equalities: text = #"{"conditions":{"and":[["room",[7,"room-3"]],["n",[7,7]]]}}"#
                case .rangeOrdered:
                    text = #"{"conditions":["level",[2,990]],"orderByProperties":[["level","Desc"]],"take":100}"#
                case .prefix: text = #"{"conditions":["name",[6,"Light 12345%"]]}"#
                }
                return try ObjectFilter(json: JSONValue(parsing: text))
            }
        }
    }

    /// The filter of the count: every object that is on (half of them).
    static var countFilter: ObjectFilter {
        get throws { try ObjectFilter(json: JSONValue(parsing: #"{"conditions":["on",[7,true]]}"#)) }
    }
}
