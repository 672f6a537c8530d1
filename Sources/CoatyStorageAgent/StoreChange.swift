import Agent
import CoatyStorage
import CoreTypes

/// What a Coaty event changes in a collection of observed objects: objects to store (replacing
/// by id), or ids to remove. The recorder and live queries read the network this way.
enum StoreChange {
    case store([any CoatyObject])
    case remove([String])

    /// The change `message` makes, keeping the objects that `accepts` takes, or `nil` when it makes
    /// none (another event type, no accepted object). Advertise and Update go out on their core
    /// type's topic (and maybe their object type's): only the former is read, so each counts once.
    ///
    /// - Throws: `EventError` or a JSON parsing error for an invalid payload.
    init?(
        _ message: CoatyMessage, registry: ObjectTypeRegistry, includesChannels: Bool,
        accepts: (any CoatyObject) -> Bool
    ) throws {
        if message.topic.eventType == .deadvertise {
            self = .remove(try Deadvertise(json: JSONValue(parsing: message.payload)).objectIDs)
            return
        }
        let objects = try Self.objects(in: message, registry: registry, includesChannels: includesChannels)
        let accepted = objects.filter(accepts)
        guard !accepted.isEmpty else { return nil }
        self = .store(accepted)
    }

    /// The objects `message` carries when it is an Advertise, an Update or (with
    /// `includesChannels`) a Channel event; none for other events. Advertise and Update are read on
    /// their core type's topic only, so each counts once.
    ///
    /// - Throws: `EventError` or a JSON parsing error for an invalid payload.
    static func objects(
        in message: CoatyMessage, registry: ObjectTypeRegistry, includesChannels: Bool
    ) throws -> [any CoatyObject] {
        let topic = message.topic
        switch topic.eventType {
        case .advertise where topic.filteredCoreType != nil:
            return [try Advertise(payload: message.payload, registry: registry).object]
        case .update where topic.filteredCoreType != nil:
            return [try Update(payload: message.payload, registry: registry).object]
        case .channel where includesChannels:
            let json = try JSONValue(parsing: message.payload)
            return try Channel(id: topic.eventTypeFilter ?? "", json: json, registry: registry).objects
        default:
            return []
        }
    }

    /// Makes the change in `collection`, committed when this returns.
    func apply(to store: ObjectStore, in collection: String) async throws {
        switch self {
        case .store(let objects): try await store.insert(objects, into: collection)
        case .remove(let ids): try await store.delete(objectIDs: ids, from: collection)
        }
    }
}
