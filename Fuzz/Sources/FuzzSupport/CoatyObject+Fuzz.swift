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

/// Whether `object` and every object it captures (a Snapshot's `object`, at any depth) are core
/// type structs: only then does it encode back to exactly its input, in wire order. A registered
/// type may drop members it does not declare, write a `Dictionary` in its own order, or round a
/// number (a `Float`), and a Snapshot carries what its captured object encodes.
public func isCoreTypeThroughout(_ object: any CoatyObject) -> Bool {
    guard isCoreTypeStruct(object) else { return false }
    guard let snapshot = object as? Snapshot else { return true }
    return isCoreTypeThroughout(snapshot.object)
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
