import CoreTypes
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

@testable import Agent

/// A local log handler that keeps what it is given.
struct RecordingLogHandler: LogHandler {
    final class Store: Sendable {
        let events = Mutex<[(Logger.Level, String)]>([])
    }

    let store = Store()
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    func log(event: LogEvent) {
        store.events.withLock { $0.append((event.level, event.message.description)) }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    var messages: [String] { store.events.withLock { $0.map(\.1) } }
}

/// The `Log` objects a publisher handed on, instead of advertising them.
final class SentLogs: Sendable {
    let logs = Mutex<[Log]>([])
    var messages: [String] { logs.withLock { $0.map(\.logMessage) } }
}

/// A logger set after the closure that uses it was made.
final class LoggerBox: Sendable {
    let logger = Mutex<Logger?>(nil)
}

@Suite struct CoatyLogHandlerTests {
    let agent: Agent

    init() throws {
        agent = try Agent(configuration: Agent.Configuration(identity: Identity(name: "Logger")))
    }

    /// Runs a publisher that records instead of advertising, lets `body` log, then stops it
    /// gracefully (which sends every queued log) and returns what was sent.
    func publish(
        _ configuration: LogPublisher.Configuration = LogPublisher.Configuration(),
        failing: Bool = false, _ body: @Sendable (LogPublisher) throws -> Void
    ) async throws -> [Log] {
        let sent = SentLogs()
        let failure = AgentError(code: .stopped, detail: "test")
        let publisher = LogPublisher(agent: agent, configuration: configuration) { log in
            if failing { throw failure }
            sent.logs.withLock { $0.append(log) }
        }
        try body(publisher)
        await testGracefulShutdown { trigger in
            trigger.triggerGracefulShutdown()
            await publisher.run()
        }
        return sent.logs.withLock { $0 }
    }

    @Test(arguments: [
        (Logger.Level.trace, LogLevel.debug), (.debug, .debug), (.info, .info), (.notice, .info),
        (.warning, .warning), (.error, .error), (.critical, .fatal),
    ])
    func swiftLogLevelsMapToCoatyLevels(level: Logger.Level, expected: LogLevel) {
        #expect(CoatyLogHandler.coatyLevel(level) == expected)
    }

    @Test func aLogObjectCarriesTheEntry() async throws {
        let logs = try await publish(LogPublisher.Configuration(host: LogHost(pid: 42, hostname: "box"), tags: ["app"]))
        { publisher in
            var logger = Logger(label: "lamps") {
                CoatyLogHandler(label: $0, publisher: publisher, remoteLogLevel: .debug)
            }
            logger[metadataKey: "room"] = "kitchen"
            logger.warning("bulb failed", metadata: ["log.tags": ["hardware", "bulb"], "attempts": "\(3)"])
        }
        let log = try #require(logs.first)
        #expect(logs.count == 1)
        #expect(log.objectType == "coaty.Log")
        #expect(log.name == "lamps")
        #expect(log.logLevel == .warning)
        #expect(log.logMessage == "bulb failed")
        #expect(log.logTags == ["app", "hardware", "bulb"])
        #expect(log.logLabels == ["attempts": "3", "room": "kitchen"])
        #expect(log.logHost == LogHost(pid: 42, hostname: "box"))
        #expect(
            log.logDate.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d/) != nil, "\(log.logDate)")
        // The object is valid on the wire, and written as coaty-js writes it.
        #expect(try Log(jsonObject: try log.jsonObject()) == log)
        let wire = JSONValue.object(try log.jsonObject()).serializedString()
        #expect(wire.contains(#""coreType":"Log""#))
        #expect(wire.contains(#""logLevel":30"#))
        #expect(wire.contains(#""logHost":{"pid":42,"hostname":"box"}"#), "\(wire)")
    }

    @Test func theControllerNameNamesTheLog() async throws {
        let logs = try await publish { publisher in
            var logger = Logger(label: "app") { CoatyLogHandler(label: $0, publisher: publisher) }
            logger[metadataKey: "controller.name"] = "LampController"
            logger.info("on")
        }
        #expect(logs.map(\.name) == ["LampController"])
    }

    @Test func localAndRemoteLevelsAreSeparate() async throws {
        let local = RecordingLogHandler()
        let logs = try await publish { publisher in
            var handler = CoatyLogHandler(label: "x", publisher: publisher, local: local, remoteLogLevel: .error)
            handler.localLogLevel = .debug
            #expect(handler.logLevel == .debug)
            let logger = Logger(label: "x") { _ in handler }
            logger.trace("nowhere")
            logger.debug("local only")
            logger.error("both")
        }
        #expect(local.messages == ["local only", "both"])
        #expect(logs.map(\.logMessage) == ["both"])
    }

    @Test func settingTheLogLevelSetsBothSides() async throws {
        let local = RecordingLogHandler()
        _ = try await publish { publisher in
            var handler = CoatyLogHandler(label: "x", publisher: publisher, local: local, remoteLogLevel: .error)
            handler.logLevel = .notice
            #expect(handler.localLogLevel == .notice)
            #expect(handler.remoteLogLevel == .notice)
        }
    }

    @Test func theFrameworksOwnLogsStayOffTheBusUnlessAllowed() async throws {
        for silences in [true, false] {
            let logs = try await publish(LogPublisher.Configuration(silencesFrameworkLogs: silences)) { publisher in
                let logger = Logger(label: "x") {
                    CoatyLogHandler(label: $0, publisher: publisher, remoteLogLevel: .trace)
                }
                logger.debug("from the agent", source: "Agent")
                logger.debug("from the app")
            }
            #expect(logs.map(\.logMessage) == (silences ? ["from the app"] : ["from the agent", "from the app"]))
        }
    }

    @Test func logsMadeWhilePublishingNeverLoopBack() async throws {
        let sent = SentLogs()
        let box = LoggerBox()
        let publisher = LogPublisher(
            agent: agent, configuration: LogPublisher.Configuration(silencesFrameworkLogs: false)
        ) { log in
            sent.logs.withLock { $0.append(log) }
            // What an agent does when publishing fails: it logs. That log must stay local.
            box.logger.withLock { $0 }?.debug("publishing \(log.logMessage)", source: "Agent")
        }
        let logger = Logger(label: "x") { CoatyLogHandler(label: $0, publisher: publisher, remoteLogLevel: .trace) }
        box.logger.withLock { $0 = logger }
        logger.info("one")
        await testGracefulShutdown { trigger in
            trigger.triggerGracefulShutdown()
            await publisher.run()
        }
        #expect(sent.messages == ["one"])
    }

    @Test func theFailureHandlerGetsEachRefusedLog() async throws {
        let failures = SentLogs()
        let configuration = LogPublisher.Configuration { error, log in
            #expect((error as? AgentError)?.code == .stopped)
            failures.logs.withLock { $0.append(log) }
        }
        let logs = try await publish(configuration, failing: true) { publisher in
            let logger = Logger(label: "x") { CoatyLogHandler(label: $0, publisher: publisher) }
            logger.info("lost")
            logger.error("also lost")
        }
        #expect(logs.isEmpty)
        #expect(failures.messages == ["lost", "also lost"])
    }

    @Test func logsBeyondTheBufferAreDroppedAndCounted() async throws {
        let sent = SentLogs()
        let publisher = LogPublisher(agent: agent, configuration: LogPublisher.Configuration(bufferSize: 2)) { log in
            sent.logs.withLock { $0.append(log) }
        }
        let logger = Logger(label: "x") { CoatyLogHandler(label: $0, publisher: publisher) }
        for i in 0..<5 { logger.info("\(i)") }
        #expect(publisher.droppedLogCount == 3)
        await testGracefulShutdown { trigger in
            trigger.triggerGracefulShutdown()
            await publisher.run()
        }
        #expect(sent.messages == ["0", "1"])
        logger.info("after the end")
        #expect(publisher.droppedLogCount == 3)
        #expect(publisher.lateLogCount == 1)
    }

    @Test func aSecondRunReturnsAtOnce() async throws {
        let sent = SentLogs()
        let publisher = LogPublisher(agent: agent, configuration: LogPublisher.Configuration()) { log in
            sent.logs.withLock { $0.append(log) }
        }
        let logger = Logger(label: "x") { CoatyLogHandler(label: $0, publisher: publisher) }
        logger.info("once")
        await testGracefulShutdown { trigger in
            await withDiscardingTaskGroup { group in
                group.addTask { await publisher.run() }
                group.addTask { await publisher.run() }
                trigger.triggerGracefulShutdown()
            }
        }
        #expect(sent.messages == ["once"])
    }

    @Test(arguments: [
        (1_634_893_258, 18, 7_200, "2021-10-22T11:00:58.018+02:00"),
        (0, 0, 0, "1970-01-01T00:00:00.000+00:00"),
        (0, 999, -18_000, "1969-12-31T19:00:00.999-05:00"),
        (-1, 5, 0, "1969-12-31T23:59:59.005+00:00"),
        (951_825_600, 120, 19_800, "2000-02-29T17:30:00.120+05:30"),
        (4_102_444_799, 1, 0, "2099-12-31T23:59:59.001+00:00"),
    ])
    func logDatesAreLocalTimeWithMillisecondsAndOffset(seconds: Int, milliseconds: Int, offset: Int, expected: String) {
        #expect(LogDate.format(secondsSinceEpoch: seconds, milliseconds: milliseconds, utcOffset: offset) == expected)
    }

    @Test func theCurrentProcessIsTheDefaultHost() {
        let host = LogHost.currentProcess()
        #expect((host.pid ?? 0) > 0)
        #expect(host.hostname?.isEmpty == false)
    }
}
