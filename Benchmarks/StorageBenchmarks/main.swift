// Storage benchmarks (issue 32): Advertise ingest into each backend and filtered queries on a
// large store, each against the same statements written by hand through the same driver in the
// same run; live-query update latency; memory while iterating the whole store.
//
//   StorageBenchmarks [--objects 1000000] [--ingest 20000] [--batch 100000] [--live 500]
//                     [--repeats 5] [--folder DIR] [--postgres postgres://user@host:port/db]
//                     [--markdown FILE]
//
// scripts/benchmark.sh runs it (section `storage`), with a PostgreSQL server it starts.
import CoatyStorage
import CoatyStoragePostgres
import CoatyStorageSQLite
import CoreTypes
import Foundation

struct Options {
    var objects = 1_000_000
    var ingest = 20_000
    var batch = 100_000
    var live = 500
    var repeats = 5
    var folder = FileManager.default.temporaryDirectory.appendingPathComponent("coaty-storage-bench").path
    var postgres: String?
    var markdown: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchmarkFailure("\(name) needs a value") }
            return next
        }
        func number(_ name: String) throws -> Int {
            let text = try value(name)
            guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0 else {
                throw BenchmarkFailure("\(name): '\(text)' is not a positive number")
            }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--objects": objects = try number(argument)
            case "--ingest": ingest = try number(argument)
            case "--batch": batch = try number(argument)
            case "--live": live = try number(argument)
            case "--repeats": repeats = try number(argument)
            case "--folder": folder = try value(argument)
            case "--postgres": postgres = try value(argument)
            case "--markdown": markdown = try value(argument)
            default: throw BenchmarkFailure("unknown argument '\(argument)'")
            }
        }
    }
}

/// One row of the report: the library's figure, the hand-written one, and library ÷ hand-written
/// (as a rate: above 1 the library is faster).
struct Row {
    let measurement: String
    let library: String
    let handWritten: String
    let ratio: Double?
}

/// A backend under test: a store, and the same statements by hand.
struct Subject {
    let name: String
    let store: ObjectStore
    /// The hand-written baseline for ingest (its own SQLite file, or the same database).
    let ingestBaseline: any HandWritten
    /// The hand-written baseline for queries over the library's loaded store, made after loading.
    let queryBaseline: () async throws -> any HandWritten
}

let options: Options
do {
    options = try Options(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("StorageBenchmarks: \(error)\n".utf8))
    exit(2)
}
do {
    try await run(options)
} catch {
    FileHandle.standardError.write(Data("StorageBenchmarks: \(error)\n".utf8))
    exit(1)
}

func run(_ options: Options) async throws {
    try? FileManager.default.removeItem(atPath: options.folder)
    try FileManager.default.createDirectory(atPath: options.folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: options.folder) }

    var subjects: [Subject] = []
    let libraryFile = options.folder + "/library.sqlite"
    let handFile = options.folder + "/hand.sqlite"
    let handStore = ObjectStore(backend: try SQLiteBackend(path: handFile))  // creates the layout
    try await handStore.addCollection("ingest_hand")
    subjects.append(
        Subject(
            name: "SQLite", store: ObjectStore(backend: try SQLiteBackend(path: libraryFile)),
            ingestBaseline: try SQLiteHandWritten(path: handFile),
            queryBaseline: { try SQLiteHandWritten(path: libraryFile) }))
    var postgresConnections: [PostgresHandWritten] = []
    if let text = options.postgres {
        let url = try PostgresURL(text)
        let store = ObjectStore(backend: PostgresBackend(url: url))
        // A database used before holds the same object ids: start from nothing, as SQLite does.
        for name in try await store.collectionNames() { try await store.removeCollection(name) }
        try await store.addCollection("ingest_hand")
        let hand = try await PostgresHandWritten(host: url.host, port: url.port, user: url.user, database: url.database)
        postgresConnections.append(hand)
        subjects.append(Subject(name: "PostgreSQL", store: store, ingestBaseline: hand, queryBaseline: { hand }))
    }

    var sections: [(String, [Row], [String])] = []
    for subject in subjects {
        print("storage: \(subject.name)")
        var rows: [Row] = []
        var notes: [String] = []
        let bench = StorageBenchmark(subject: subject, options: options)
        rows += try await bench.ingest()
        let (loadRow, loadNote) = try await bench.load()
        rows.append(loadRow)
        notes.append(loadNote)
        rows += try await bench.queries()
        rows.append(try await bench.liveQueryLatency())
        notes.append(try await bench.iterationMemory())
        for row in rows {
            print("  \(row.measurement): library \(row.library), hand-written \(row.handWritten)"
                + (row.ratio.map { String(format: ", %.2f×", $0) } ?? ""))
        }
        for note in notes { print("  \(note)") }
        sections.append((subject.name, rows, notes))
    }
    for connection in postgresConnections { try await connection.close() }

    if let file = options.markdown {
        var text = "\n## Storage: ingest, queries, live queries, memory\n\n"
        text += """
            `StorageBenchmarks` (scripts/benchmark.sh section `storage`), release build. Each library \
            figure is set beside the same statements written by hand through the same driver (GRDB, \
            postgres-nio) in the same run; the hand-written code parses each object's JSON as the \
            library does (for its id when writing, each row when reading). Ratio: library ÷ \
            hand-written as a rate (≥ 0.8× is the target). Ingest per event is one transaction per \
            Advertise, as the recorder writes: the library decodes each text into the typed object \
            and stores it, the baseline stores the text. Typed objects are given to both sides \
            decoded, as an agent delivers them; the baseline encodes each with `jsonObject()`. The \
            import stores parsed JSON objects (`insert(json:)`, as `agent-runner store import` \
            does). The last ingest row charges the library for decoding each Advertise text (what \
            an agent does for every object it delivers, measured in B3) while the baseline stores \
            the texts as they came: it shows what decoding adds and has no target. Ingest rates are the best of two \
            alternating rounds per event, three batched. The library sends its PostgreSQL upserts \
            as prepared statements, the hand-written code unprepared (postgres-nio's `query`); it \
            binds its SQLite upserts through SQLite's C API on GRDB's statement, the hand-written \
            code through GRDB's `execute(arguments:)`. \
            SQLite runs in WAL mode with its default `synchronous=FULL`; the PostgreSQL server runs \
            with `synchronous_commit = off`.\n
            """
        for (name, rows, notes) in sections {
            text += "\n### \(name)\n\n| measurement | library | hand-written | ratio |\n| --- | ---: | ---: | ---: |\n"
            for row in rows {
                text += "| \(row.measurement) | \(row.library) | \(row.handWritten) | "
                    + (row.ratio.map { String(format: "%.2f×", $0) } ?? "") + " |\n"
            }
            if !notes.isEmpty { text += "\n" + notes.map { "- \($0)" }.joined(separator: "\n") + "\n" }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }
}
