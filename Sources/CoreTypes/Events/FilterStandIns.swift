// TEMPORARY stand-ins until branch `filter` lands; deleted on merge. Not part of the events API.
public struct FilterStandInError: Error, CustomStringConvertible { public var description: String { "invalid filter" } }

public struct ContextFilter: Sendable, Hashable {
    public var json: JSONValue
    public init(json: JSONValue) throws {
        guard case .object(let o) = json, Self.conditionsValid(o["conditions"]) else { throw FilterStandInError() }
        self.json = json
    }
    static func conditionsValid(_ c: JSONValue?) -> Bool {
        guard let c else { return true }
        if isCondition(c) { return true }
        guard case .object(let o) = c else { return false }
        if o["and"] != nil && o["or"] != nil { return false }
        for k in ["and", "or"] { if let v = o[k] { guard let a = v.arrayValue, a.allSatisfy(isCondition) else { return false } } }
        return true
    }
    static func isCondition(_ c: JSONValue) -> Bool {
        guard let a = c.arrayValue, a.count == 2 else { return false }
        let p = a[0]
        let pathOK = (p.stringValue.map { !$0.isEmpty } ?? false) || (p.arrayValue?.allSatisfy { $0.stringValue != nil } ?? false)
        guard pathOK, let op = a[1].arrayValue, let code = op.first?.intValue, (0...14).contains(code) else { return false }
        return true
    }
}

public struct ObjectFilter: Sendable, Hashable {
    public var json: JSONValue
    public init() { json = .object([:]) }
    public init(json: JSONValue) throws {
        guard case .object(let o) = json, ContextFilter.conditionsValid(o["conditions"]) else { throw FilterStandInError() }
        for k in ["skip", "take"] { if let v = o[k], !v.isNumber { throw FilterStandInError() } }
        if let ob = o["orderByProperties"] {
            guard let a = ob.arrayValue else { throw FilterStandInError() }
            for e in a { guard let p = e.arrayValue, p.count == 2, p[1] == "Asc" || p[1] == "Desc" else { throw FilterStandInError() } }
        }
        self.json = json
    }
}

public struct ObjectJoinCondition: Sendable, Hashable {
    public var json: JSONValue
    public init(json: JSONValue) throws {
        guard case .object(let o) = json, o["localProperty"]?.stringValue != nil, o["asProperty"]?.stringValue != nil else { throw FilterStandInError() }
        self.json = json
    }
}

public enum ObjectMatcher {
    public static func matchesFilter(_ object: JSONValue, _ filter: ContextFilter) throws -> Bool {
        guard let c = filter.json["conditions"], let a = c.arrayValue, let path = a[0].stringValue, let op = a[1].arrayValue,
              op.first?.intValue == 7, op.count == 2 else { return true }
        return object[path] == op[1]
    }
}
