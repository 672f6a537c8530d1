import CoatyStorage
import CoreTypes
import Foundation

/// The measurements of one backend.
struct StorageBenchmark {
    let subject: Subject
    let options: Options
    let registry = ObjectTypeRegistry()

    /// The object a recorder stores for an Advertise's JSON text.
    func decode(_ text: String) throws -> any CoatyObject {
        guard case .object(let json) = try JSONValue(parsing: text) else { throw BenchmarkFailure("not an object") }
        return try registry.decodeObject(json)
    }

    /// The objects of `texts`, decoded outside any async function (Swift 6.3's release build
    /// crashes splitting async functions that build such an array in a loop).
    func decodeAll<Texts: Collection<String>>(_ texts: Texts) throws -> [any CoatyObject] {
        try texts.map(decode)
    }

    /// The JSON objects of `texts`, as an import reads them (outside any async function, as above).
    func parseAll<Texts: Collection<String>>(_ texts: Texts) throws -> [JSONObject] {
        try texts.map { text in
            guard case .object(let json) = try JSONValue(parsing: text) else { throw BenchmarkFailure("not an object") }
            return json
        }
    }

    /// Ingest per event, of typed objects, of JSON objects, and of texts decoded on the way,
    /// library against hand-written, in alternating rounds (best of each).
    func ingest() async throws -> [Row] {
        try await subject.store.addCollection("ingest_lib")
        let perEvent = try await ingestRates(count: options.ingest, mode: .perEvent)
        let typed = try await ingestRates(count: options.batch, mode: .typed)
        let json = try await ingestRates(count: options.batch, mode: .json)
        let decoded = try await ingestRates(count: options.batch, mode: .decoded)
        let batch = Measure.grouped(options.batch)
        return [
            Self.rateRow("Advertise ingest, one transaction per event (\(Measure.grouped(options.ingest)) objects)", perEvent),
            Self.rateRow("Ingest of typed objects in transactions of 1,000 (\(batch) objects)", typed),
            Self.rateRow("Import of JSON objects, `insert(json:)`, in transactions of 1,000 (\(batch) objects)", json),
            Self.rateRow(
                "Advertise texts decoded, then stored, in transactions of 1,000 (\(batch) objects; decoding included, no target)",
                decoded),
        ]
    }

    static func rateRow(_ label: String, _ rates: (library: Double, hand: Double)) -> Row {
        Row(
            measurement: label, library: "\(Measure.grouped(Int(rates.library))) objects/s",
            handWritten: "\(Measure.grouped(Int(rates.hand))) objects/s", ratio: rates.library / rates.hand)
    }

    /// What each side is given and does; the hand-written side always runs the backend's statements.
    enum IngestMode: String {
        /// Advertise texts, a transaction each (a recorder): the library decodes each into its
        /// typed object and stores it; the baseline reads the id from the text and stores the text.
        case perEvent
        /// Typed objects, as an agent delivers them (decoded before the clock starts), 1,000 a
        /// transaction: the library stores them; the baseline encodes each with `jsonObject()`.
        case typed
        /// JSON objects, 1,000 a transaction (an import): both sides parse each text; the library
        /// stores the parsed objects with `insert(json:)`, the baseline the texts.
        case json
        /// Advertise texts, 1,000 a transaction: the library decodes each (what an agent does for
        /// every delivered object) and stores it; the baseline stores the texts. Shows what decoding adds.
        case decoded
    }

    /// The best rates in objects/s of alternating rounds: two of one transaction per object,
    /// three of the shorter batched ones (the baseline alone moves by a quarter between rounds).
    private func ingestRates(count: Int, mode: IngestMode) async throws -> (library: Double, hand: Double) {
        var library = 0.0
        var hand = 0.0
        for round in 0..<(mode == .perEvent ? 2 : 3) {
            let (libraryTag, handTag) = ("lib-\(mode.rawValue)-\(round)", "hand-\(mode.rawValue)-\(round)")
            let libraryTexts = (0..<count).map { Workload.objectText($0, tag: libraryTag) }
            let handTexts = (0..<count).map { Workload.objectText($0, tag: handTag) }
            let librarySeconds = try await libraryIngest(libraryTexts, mode: mode)
            let handSeconds = try await handIngest(handTexts, mode: mode)
            library = max(library, Double(count) / librarySeconds)
            hand = max(hand, Double(count) / handSeconds)
        }
        return (library, hand)
    }

    /// Seconds the library takes to store `texts` as `mode` says.
    private func libraryIngest(_ texts: [String], mode: IngestMode) async throws -> Double {
        let size = mode == .perEvent ? 1 : 1000
        let store = subject.store
        let given = mode == .typed ? try decodeAll(texts) : []
        let (_, seconds) = try await Measure.seconds {
            var index = 0
            while index < texts.count {
                let range = index..<min(index + size, texts.count)
                switch mode {
                case .typed: try await store.insert(Array(given[range]), into: "ingest_lib")
                case .json: try await store.insert(json: try parseAll(texts[range]), into: "ingest_lib")
                case .perEvent, .decoded: try await store.insert(try decodeAll(texts[range]), into: "ingest_lib")
                }
                index += size
            }
        }
        return seconds
    }

    /// Seconds the hand-written statements take to store `texts` as `mode` says.
    private func handIngest(_ texts: [String], mode: IngestMode) async throws -> Double {
        let given = mode == .typed ? try decodeAll(texts) : []
        let start = ContinuousClock.now
        if mode == .perEvent {
            try await subject.ingestBaseline.insertEach(texts, into: "ingest_hand")
            return Self.seconds(since: start)
        }
        for first in stride(from: 0, to: texts.count, by: 1000) {
            let range = first..<min(first + 1000, texts.count)
            let rows = mode == .typed ? try Self.rows(encoding: given[range]) : try Self.rows(reading: texts[range])
            try await subject.ingestBaseline.insertAll(rows, into: "ingest_hand")
        }
        return Self.seconds(since: start)
    }

    /// Rows of typed objects, encoded by hand (outside any async function, as `decodeAll`).
    static func rows(encoding objects: ArraySlice<any CoatyObject>) throws -> [HandRow] {
        try objects.map(HandRow.init(object:))
    }

    /// Rows of JSON texts, their ids read from the texts.
    static func rows(reading texts: ArraySlice<String>) throws -> [HandRow] {
        try texts.map(HandRow.init(text:))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let (whole, fraction) = (ContinuousClock.now - start).components
        return Double(whole) + Double(fraction) / 1e18
    }

    /// Loads the query set through the library, in transactions of 10,000.
    func load() async throws -> (Row, String) {
        try await subject.store.addCollection("objects")
        let count = options.objects
        let (_, seconds) = try await Measure.seconds {
            for start in stride(from: 0, to: count, by: 10_000) {
                let objects = try decodeAll((start..<min(start + 10_000, count)).map { Workload.objectText($0, tag: "q") })
                try await subject.store.insert(objects, into: "objects")
                if start > 0, start % 200_000 == 0 { print("  loaded \(Measure.grouped(start))") }
            }
        }
        let rate = Double(count) / seconds
        return (
            Row(
                measurement: "Loading the query set (\(Measure.grouped(count)) objects, transactions of 10,000)",
                library: "\(Measure.grouped(Int(rate))) objects/s", handWritten: "", ratio: nil),
            String(format: "Loading %@ objects took %.1f s.", Measure.grouped(count), seconds)
        )
    }

    /// Each query and the count, median of the repeats; the two sides must find the same rows.
    func queries() async throws -> [Row] {
        let hand = try await subject.queryBaseline()
        var rows: [Row] = []
        for query in Workload.Query.allCases {
            let filter = try query.filter
            var libraryTimes: [Double] = []
            var handTimes: [Double] = []
            var found = (0, 0)
            for _ in 0..<options.repeats {
                let (libraryCount, librarySeconds) = try await Measure.seconds {
                    var count = 0
                    for try await _ in subject.store.find(in: "objects", filter: filter) { count += 1 }
                    return count
                }
                let (handCount, handSeconds) = try await Measure.seconds {
                    try await hand.find(query, in: "objects")
                }
                libraryTimes.append(librarySeconds)
                handTimes.append(handSeconds)
                found = (libraryCount, handCount)
            }
            guard found.0 == found.1 else {
                throw BenchmarkFailure("\(query.rawValue): the library found \(found.0), the SQL \(found.1)")
            }
            rows.append(Self.timeRow("Query \(query.rawValue) (\(Measure.grouped(found.0)) found)", libraryTimes, handTimes))
        }
        let countFilter = try Workload.countFilter
        var libraryTimes: [Double] = []
        var handTimes: [Double] = []
        var counted = (0, 0)
        for _ in 0..<options.repeats {
            let (libraryCount, librarySeconds) = try await Measure.seconds {
                try await subject.store.count(in: "objects", filter: countFilter)
            }
            let (handCount, handSeconds) = try await Measure.seconds { try await hand.countOn(in: "objects") }
            libraryTimes.append(librarySeconds)
            handTimes.append(handSeconds)
            counted = (libraryCount, handCount)
        }
        guard counted.0 == counted.1 else {
            throw BenchmarkFailure("count: the library counted \(counted.0), the SQL \(counted.1)")
        }
        rows.append(Self.timeRow("Count on = true (\(Measure.grouped(counted.0)))", libraryTimes, handTimes))
        return rows
    }

    static func timeRow(_ label: String, _ library: [Double], _ hand: [Double]) -> Row {
        let libraryMedian = Measure.quantile(library, 0.5)
        let handMedian = Measure.quantile(hand, 0.5)
        return Row(
            measurement: "\(label), median of \(library.count)",
            library: Measure.milliseconds(libraryMedian), handWritten: Measure.milliseconds(handMedian),
            ratio: handMedian / libraryMedian)
    }

    /// From an insert through the store to the live query's next result, with the result growing
    /// to `options.live` objects.
    func liveQueryLatency() async throws -> Row {
        try await subject.store.addCollection("live")
        let filter = try ObjectFilter(json: JSONValue(parsing: #"{"conditions":["room",[7,"room-1"]]}"#))
        let latencies = try await subject.store.observe(in: "live", filter: filter) { results in
            var iterator = results.makeAsyncIterator()
            _ = try await iterator.next()
            var latencies: [Double] = []
            for index in 0..<options.live {
                let objects = try decodeAll([Workload.objectText(index * 10 + 1, tag: "live")])
                let start = ContinuousClock.now
                try await subject.store.insert(objects, into: "live")
                let added = try await iterator.next()?.added.count
                latencies.append(Self.seconds(since: start))
                guard added == 1 else { throw BenchmarkFailure("the live query did not report the inserted object") }
            }
            return latencies
        }
        return Row(
            measurement: "Live query: insert → next result (\(options.live) inserts, result up to \(options.live) objects), p50 / p99",
            library: "\(Measure.milliseconds(Measure.quantile(latencies, 0.5))) / \(Measure.milliseconds(Measure.quantile(latencies, 0.99)))",
            handWritten: "", ratio: nil)
    }

    /// Resident memory while every stored object is read through `find` (batches of 256).
    func iterationMemory() async throws -> String {
        let before = Measure.residentBytes()
        var largest = before
        var count = 0
        for try await _ in subject.store.find(in: "objects") {
            count += 1
            if count % 10_000 == 0 { largest = max(largest, Measure.residentBytes()) }
        }
        let after = Measure.residentBytes()
        return "Iterating all \(Measure.grouped(count)) objects with `find`: resident memory "
            + "\(Measure.mebibytes(before)) before, \(Measure.mebibytes(largest)) at most, "
            + "\(Measure.mebibytes(after)) after (growth \(Measure.mebibytes(max(0, largest - before))))."
    }
}
