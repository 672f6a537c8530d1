import CoreTypes
import Testing

/// The table from coaty-js `observe…` calls to Swift observation plans.
enum ObservationEquivalent {
    // swift-format-ignore
    /// The observation plan for an `observe…(…)` call, `nil` when the call is not in the table.
    static func plan(for call: JSCall, in scope: AgentScope) throws -> ObservationPlan? {
        typealias S = SwiftEquivalent
        switch call.callee {
        case "observeAdvertiseWithCoreType": return .advertise(coreType: try coreType(call[0]), in: scope)
        case "observeAdvertiseWithObjectType": return try .advertise(objectType: S.string(call[0]), in: scope)
        case "observeDeadvertise": return .deadvertise(in: scope)
        case "observeChannel": return try .channel(S.string(call[0]), in: scope)
        case "observeDiscover": return .discover(in: scope)
        case "observeQuery": return .query(in: scope)
        case "observeUpdateWithCoreType": return .update(coreType: try coreType(call[0]), in: scope)
        case "observeUpdateWithObjectType": return try .update(objectType: S.string(call[0]), in: scope)
        case "observeCall": return try .call(S.string(call[0]), in: scope)
        case "observeRaw": return try .raw(S.string(call[0]))
        default: return nil
        }
    }

    static func coreType(_ argument: JSArgument) throws -> CoreType {
        let name = try SwiftEquivalent.string(argument)
        guard let coreType = CoreType(rawValue: name) else {
            throw Inexpressible(
                reason: "observing by core type takes the CoreType enum; '\(name)' is not one of its cases")
        }
        return coreType
    }
}
