import ArgumentParser
import CoatyStorage
import CoreTypes
import Foundation

/// `store query|count|export|import`: a store read or filled without a broker.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Reads or fills an object store directly, without a broker.",
        discussion: """
            The store may be in use by a running recorder (run with storage:): SQLite lets readers \
            work beside its writer; PostgreSQL lets any number of readers and writers share it. \
            Databases are URLs: sqlite:PATH or postgres://user[:password]@host[:port]/database.
            """,
        subcommands: [StoreQueryCommand.self, StoreCountCommand.self, StoreExportCommand.self, StoreImportCommand.self])
}

/// The options every `store` subcommand takes.
struct StoreOptions: ParsableArguments {
    @Option(help: "The database: sqlite:PATH or postgres://user@host:5432/database.")
    var database: String

    @Option(help: "The collection.")
    var collection = "objects"

    /// Opens the store; a store that is only read must exist already.
    func store(reading: Bool) throws -> ObjectStore {
        let url = try DatabaseURL(database, option: "--database")
        if reading { try url.requireExisting(option: "--database") }
        return try url.store()
    }

    /// Calls `body` with each stored object that `filter` (JSON) finds, in its order.
    func forEachObject(filter text: String?, _ body: (any CoatyObject) throws -> Void) async throws {
        let filter = try Input.objectFilter(text, option: "--filter")
        let store = try store(reading: true)
        try await reading(store) {
            for try await object in store.find(in: collection, filter: filter) { try body(object) }
        }
    }

    /// Runs `body`, turning a missing collection or a failing filter into exit code 2.
    func reading<T>(_ store: ObjectStore, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError where error.code == .collectionNotFound {
            let names = (try? await store.collectionNames()) ?? []
            throw RunnerError.usage(
                "--collection",
                "no collection '\(collection)' in \(database); "
                    + (names.isEmpty ? "the store has none yet" : "it has \(names.joined(separator: ", "))"))
        } catch let error as StorageError where error.code == .filterFailed {
            throw RunnerError.usage("--filter", error.detail)
        }
    }
}

/// `store query`: the objects a filter finds, a line each.
struct StoreQueryCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "query", abstract: "Prints the stored objects that a filter finds, one a line.",
        discussion: "JSON output prints each object as a JSON line; text output a readable line each.")

    @OptionGroup(title: "Store Options") var storeOptions: StoreOptions

    @Option(
        help:
            #"The object filter as JSON, like '{"conditions":["name",[6,"Lamp%"]],"orderByProperties":[["name","Asc"]],"take":10}'."#
    )
    var filter: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let output = context.output
        try await storeOptions.forEachObject(filter: filter) { object in
            switch output.mode {
            case .json: output.json(try object.jsonObject())
            case .text: output.line("\(object.name)  \(object.objectType)  \(object.objectID)")
            }
        }
    }
}

/// `store count`: how many objects a filter finds.
struct StoreCountCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "count", abstract: "Prints how many stored objects a filter finds (the number alone).")

    @OptionGroup(title: "Store Options") var storeOptions: StoreOptions

    @Option(help: "The object filter as JSON (its skip and take count too).")
    var filter: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let filter = try Input.objectFilter(filter, option: "--filter")
        let store = try storeOptions.store(reading: true)
        let count = try await storeOptions.reading(store) {
            try await store.count(in: storeOptions.collection, filter: filter)
        }
        context.output.line("\(count)")
    }
}

/// `store export`: JSON lines, one object a line, for `store import`.
struct StoreExportCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Prints the stored objects as JSON lines, one object a line (for store import).")

    @OptionGroup(title: "Store Options") var storeOptions: StoreOptions

    @Option(help: "Export only what this object filter finds (JSON).")
    var filter: String?

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        try await storeOptions.forEachObject(filter: filter) { context.output.json(try $0.jsonObject()) }
    }
}

/// `store import`: JSON lines from standard input, all or nothing.
struct StoreImportCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Stores the objects of JSON lines read from standard input (one object a line).",
        discussion: """
            An object replaces a stored one with the same objectId; the collection is created when \
            missing. The whole input is checked first: bad lines are reported with their line \
            number and nothing is stored (exit 2).
            """)

    @OptionGroup(title: "Store Options") var storeOptions: StoreOptions

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let registry = ObjectTypeRegistry()
        let objects = try Input.jsonLines(
            Input.read("-", option: "stdin"), source: "stdin", unlessBad: "nothing was stored"
        ) {
            json in
            guard let members = json.objectValue else {
                throw RunnerError(code: .usage, message: "expected a Coaty object, found \(json.typeName)")
            }
            do {
                // Checked as decoding would, without building the object, and encoded once here:
                // the insert below takes the encoded objects without checking them again.
                try registry.validate(members)
                return try EncodedObject(members)
            } catch {
                throw RunnerError(code: .usage, message: "not a valid Coaty object: \(error)")
            }
        }
        let store = try storeOptions.store(reading: false)
        let collection = storeOptions.collection
        try await store.transaction { transaction in
            try transaction.addCollection(collection)
            try transaction.insert(encoded: objects, into: collection, replacing: true)
        }
        context.output.note(
            "store import: \(objects.count) object\(objects.count == 1 ? "" : "s") stored in '\(collection)'")
    }
}
