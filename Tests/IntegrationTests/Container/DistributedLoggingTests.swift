import Agent
import CoreTypes
import Logging
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct DistributedLoggingTests {
    @Test func logEntriesTravelAsLogObjects() async throws {
        try await TestBroker.withBroker { broker in
            let container = try Container(
                components: Components(),
                configuration: RunningContainers.configuration("Logging agent", broker: broker))
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            try await RunningAgents.run([watcher]) {
                let logs = try await watcher.observeAdvertise(coreType: .log)
                try await RunningContainers.run(container) {
                    var logger = Logger(label: "lamps") { container.logHandler(label: $0, remoteLogLevel: .info) }
                    logger[metadataKey: "room"] = "kitchen"
                    logger.debug("too detailed for the bus")
                    logger.debug("the agent's own", source: "Agent")
                    logger.error("the framework's own error", source: "Agent")
                    logger.info("lamp switched on", metadata: ["log.tags": ["lights"]])
                    var iterator = logs.makeAsyncIterator()
                    let received = try #require(await iterator.next())
                    let log = try #require(received.event.object as? Log)
                    #expect(received.sourceID == container.agent.identity.objectID)
                    #expect(received.topic.eventTypeFilter == "Log")
                    #expect(
                        log.logMessage == "lamp switched on", "nothing below the remote level, nothing of the framework"
                    )
                    #expect(log.logLevel == .info)
                    #expect(log.name == "lamps")
                    #expect(log.logTags == ["lights"])
                    #expect(log.logLabels == ["room": "kitchen"])
                    #expect(log.logHost?.pid == LogHost.currentProcess().pid)
                    #expect(log.logHost?.hostname == LogHost.currentProcess().hostname)
                }
            }
        }
    }

    @Test func logsMadeJustBeforeTheStopStillGoOut() async throws {
        try await TestBroker.withBroker { broker in
            let container = try Container(
                components: Components(),
                configuration: RunningContainers.configuration("Logging agent", broker: broker))
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            try await RunningAgents.run([watcher]) {
                let logs = try await watcher.observeAdvertise(coreType: .log)
                try await RunningContainers.run(container) {
                    let logger = Logger(label: "shutdown") { container.logHandler(label: $0) }
                    for i in 0..<20 { logger.warning("going down \(i)") }
                }
                var messages: [String] = []
                for try await received in logs {
                    messages.append((received.event.object as? Log)?.logMessage ?? "?")
                    if messages.count == 20 { break }
                }
                #expect(messages == (0..<20).map { "going down \($0)" })
            }
        }
    }

    @Test func aLocalHandlerGetsItsOwnLevel() async throws {
        try await TestBroker.withBroker { broker in
            let container = try Container(
                components: Components(),
                configuration: RunningContainers.configuration("Logging agent", broker: broker))
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            let local = CollectingLogHandler()
            try await RunningAgents.run([watcher]) {
                let logs = try await watcher.observeAdvertise(coreType: .log)
                try await RunningContainers.run(container) {
                    var handler = container.logHandler(label: "app", local: local, remoteLogLevel: .error)
                    handler.localLogLevel = .debug
                    let logger = Logger(label: "app") { _ in handler }
                    logger.debug("local detail")
                    logger.error("everyone should know")
                    var iterator = logs.makeAsyncIterator()
                    let received = try #require(await iterator.next())
                    #expect((received.event.object as? Log)?.logMessage == "everyone should know")
                    #expect((received.event.object as? Log)?.logLevel == .error)
                }
            }
            #expect(local.messages == ["local detail", "everyone should know"])
        }
    }
}
