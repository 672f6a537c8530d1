/// Fragments: `Codable` types registered for one custom *field* name, read and written typed in
/// any object.
///
/// A fragment is a piece of data many object types carry under the same member name, such as a
/// `battery` member on lights, sensors and robots. Register its type once; then read it from any
/// decoded object, whatever its object type:
///
/// ```swift
/// struct Battery: Codable, Sendable { var level: Double; var charging: Bool }
///
/// try registry.register(fragment: Battery.self, forField: "battery")
/// let battery = try registry.fragment(Battery.self, in: object)    // Battery? (nil when absent)
/// try registry.setFragment(Battery(level: 1, charging: false), in: &object)
/// ```
extension ObjectTypeRegistry {
    /// Registers `type` as the fragment stored in the member `field` of any object.
    ///
    /// - Throws: ``ObjectTypeRegistryError`` with code `ObjectTypeRegistryError.Code.frozen`,
    ///   `ObjectTypeRegistryError.Code.duplicateFragment` (the type or the field is taken) or
    ///   `ObjectTypeRegistryError.Code.invalidFragmentField` (empty, or a base field name).
    public mutating func register<F: Codable & Sendable>(fragment type: F.Type, forField field: String) throws {
        guard !isFrozen else {
            throw ObjectTypeRegistryError(
                code: .frozen, detail: "cannot register fragment \(F.self) for '\(field)': the registry is frozen")
        }
        guard !field.isEmpty, !BaseFields.isBaseField(field) else {
            throw ObjectTypeRegistryError(
                code: .invalidFragmentField,
                detail:
                    "fragment field '\(field)' for \(F.self) must be non-empty and not a base field of Coaty objects")
        }
        if let existing = fragmentsByType[ObjectIdentifier(F.self)] {
            throw ObjectTypeRegistryError(
                code: .duplicateFragment,
                detail: "\(F.self) is already registered as the fragment of field '\(existing.field)'")
        }
        if let other = fragmentTypesByField[field], let existing = fragmentsByType[other] {
            throw ObjectTypeRegistryError(
                code: .duplicateFragment,
                detail: "field '\(field)' already holds the fragment \(existing.type); cannot register \(F.self) too")
        }
        fragmentsByType[ObjectIdentifier(F.self)] = Fragment(type: F.self, field: field)
        fragmentTypesByField[field] = ObjectIdentifier(F.self)
    }

    /// The field name `type` is registered for, or `nil` when it is not a registered fragment.
    public func fragmentField<F>(for type: F.Type) -> String? {
        fragmentsByType[ObjectIdentifier(F.self)]?.field
    }

    /// The fragment of type `type` in `object`, or `nil` when the object does not have its field
    /// (or has `null` there).
    ///
    /// The field is read from ``CoatyObject/custom``, or from the object's encoded form when the
    /// object declares the field itself.
    ///
    /// - Throws: ``ObjectTypeRegistryError`` (`ObjectTypeRegistryError.Code.fragmentNotRegistered`)
    ///   when `type` is not registered; ``ObjectDecodingError`` naming the field (`battery.level`)
    ///   when the member does not have the fragment's shape.
    public func fragment<F: Decodable>(_ type: F.Type, in object: some CoatyObject) throws -> F? {
        let field = try registeredField(for: type)
        guard let member = try object.custom[field] ?? object.jsonObject()[field], !member.isNull else { return nil }
        do {
            return try JSONValueDecoder().decode(type, from: member, codingPath: [AnyCodingKey(field)])
        } catch let error as DecodingError {
            throw Self.objectError(
                error, context: WireContext(objectType: object.objectType, coreType: object.coreType.rawValue))
        }
    }

    /// Stores `value` as the fragment in `object`'s custom fields, or removes it when `value` is `nil`.
    ///
    /// Only objects that keep custom fields (the core types, and application types that declare
    /// ``CustomFields``) can carry a fragment they do not declare themselves.
    ///
    /// - Throws: ``ObjectTypeRegistryError`` when the type is not registered; `EncodingError` when
    ///   `value` cannot be encoded.
    public func setFragment<F: Encodable, Object: CoatyObject>(_ value: F?, in object: inout Object) throws {
        let field = try registeredField(for: F.self)
        if let value {
            object.custom[field] = try JSONValueEncoder().encode(value)
        } else {
            object.custom[field] = nil
        }
    }

    private func registeredField<F>(for type: F.Type) throws(ObjectTypeRegistryError) -> String {
        guard let field = fragmentField(for: type) else {
            throw ObjectTypeRegistryError(
                code: .fragmentNotRegistered,
                detail: "\(F.self) is not a registered fragment; call register(fragment:forField:) while bootstrapping")
        }
        return field
    }
}
