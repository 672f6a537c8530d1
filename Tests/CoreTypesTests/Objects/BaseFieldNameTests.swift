@testable import CoreTypes
import Testing

/// `BaseFields.Field` tells base-field names apart by length and eight-byte words written out as
/// constants; these tests tie the constants to the names and check the near misses.
@Suite struct BaseFieldNameTests {
    @Test func eachFieldIsNamedByItsKeyInTheCanonicalOrder() {
        #expect(BaseFields.Field.allCases.map(\.key) == BaseFields.names)
        for field in BaseFields.Field.allCases { #expect(BaseFields.Field(field.key) == field) }
    }

    @Test func theWordsAreThoseOfTheNames() {
        func words(_ name: String) -> (head: UInt64, tail: UInt64) {
            let bytes = Array(name.utf8)
            func word(_ from: Int) -> UInt64 {
                bytes[from..<(from + 8)].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            return (word(0), word(bytes.count - 8))
        }
        typealias Words = BaseFields.Field.Words
        #expect(Words.name == "name".utf8.reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let expected: [(String, (head: UInt64, tail: UInt64))] = [
            ("objectId", Words.objectID), ("coreType", Words.coreType), ("objectType", Words.objectType),
            ("externalId", Words.externalID), ("locationId", Words.locationID),
            ("isDeactivated", Words.isDeactivated), ("parentObjectId", Words.parentObjectID),
        ]
        for (name, constant) in expected {
            #expect(words(name) == constant, "\(name)")
        }
    }

    @Test func everyBaseFieldIsFoundByItsName() {
        let fields: [(String, BaseFields.Field)] = [
            ("objectId", .objectID), ("objectType", .objectType), ("coreType", .coreType), ("name", .name),
            ("externalId", .externalID), ("parentObjectId", .parentObjectID), ("locationId", .locationID),
            ("isDeactivated", .isDeactivated),
        ]
        #expect(fields.map(\.0) == BaseFields.names)
        for (name, field) in fields {
            #expect(BaseFields.Field(name) == field, "\(name)")
            // The same bytes in a heap-allocated string (short names are otherwise stored inline).
            var large = String()
            large.reserveCapacity(64)
            large += name
            #expect(BaseFields.Field(large) == field, "\(name) as a large string")
        }
    }

    @Test(arguments: [
        "", "nam", "Name", "names", "nameX", "objectID", "objectid", "ObjectId", "coreTypE", "coreTyp",
        "objectTypes", "objectTyp", "externalID", "locationid", "isdeactivated", "isDeactivate",
        "parentObjectID", "parentobjectId", "xbjectType", "objectTypx", "objectIdobjectId", "n\u{0}me",
        "nam\u{E9}", "objectT\u{FC}pe",
    ])
    func nearMissesAreNotBaseFields(_ key: String) {
        #expect(BaseFields.Field(key) == nil)
        #expect(!BaseFields.isBaseField(key))
    }
}
