public import CoreTypes

/// Whether two objects are equal, or `nil` when their type is not `Hashable`.
public func isEqual(_ a: any CoatyObject, _ b: any CoatyObject) -> Bool? {
    guard let a = a as? any Hashable, let b = b as? any Hashable else { return nil }
    return AnyHashable(a) == AnyHashable(b)
}

/// Whether `object` is one of the twelve core type structs (the decode chain's fallback) rather
/// than a registered application type.
public func isCoreTypeStruct(_ object: any CoatyObject) -> Bool {
    object is any CoreTypeMarker
}

/// The twelve core type structs (the decode chain's fallback), as opposed to registered types.
protocol CoreTypeMarker {}
extension BaseObject: CoreTypeMarker {}
extension User: CoreTypeMarker {}
extension Annotation: CoreTypeMarker {}
extension TaskObject: CoreTypeMarker {}
extension IoContext: CoreTypeMarker {}
extension IoNode: CoreTypeMarker {}
extension IoSource: CoreTypeMarker {}
extension IoActor: CoreTypeMarker {}
extension Identity: CoreTypeMarker {}
extension Log: CoreTypeMarker {}
extension Location: CoreTypeMarker {}
extension Snapshot: CoreTypeMarker {}
