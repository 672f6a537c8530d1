import Agent
import CoreTypes
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ObjectProviderControllerTests {
    static let lampJSON: JSONValue = [
        "objectId": "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Desk lamp", "externalId": "LX-1", "brightness": 0.8,
    ]
    static let hallJSON: JSONValue = [
        "objectId": "3e5a7c9e-2b4d-4f6a-8c1e-3a5c7e9b1d3f", "objectType": "com.example.Light",
        "coreType": "CoatyObject", "name": "Hall light", "brightness": 0.2,
    ]

    func provider(_ broker: TestBroker) throws -> Container {
        try Container(
            components: Components(controllers: [.objectProvider()]),
            configuration: RunningContainers.configuration(
                "Provider", broker: broker,
                options: ["ObjectProviderController": ["objects": [Self.lampJSON, Self.hallJSON]]]))
    }

    @Test func advertisesItsObjectsWhenOnlineAndDeadvertisesThemWhenItStops() async throws {
        try await TestBroker.withBroker { broker in
            let watcher = try Agent(configuration: RunningAgents.configuration("Watcher", broker: broker))
            try await RunningAgents.run([watcher]) {
                let advertised = try await watcher.observeAdvertise(objectType: "com.example.Light")
                let deadvertised = try await watcher.observeDeadvertise()
                let container = try provider(broker)
                try await RunningContainers.run(container) {
                    var names: [String] = []
                    for try await received in advertised {
                        names.append(received.event.object.name)
                        if names.count == 2 { break }
                    }
                    #expect(names == ["Desk lamp", "Hall light"])
                }
                var iterator = deadvertised.makeAsyncIterator()
                let first = try #require(await iterator.next())
                #expect(
                    first.event.objectIDs
                        == [Self.lampJSON["objectId"], Self.hallJSON["objectId"]].compactMap { $0?.stringValue })
            }
        }
    }

    @Test func resolvesDiscoversByIdExternalIdAndType() async throws {
        try await TestBroker.withBroker { broker in
            let asker = try Agent(configuration: RunningAgents.configuration("Asker", broker: broker))
            let container = try provider(broker)
            try await RunningAgents.run([asker]) {
                try await RunningContainers.run(container) {
                    let byID = try await asker.discover(
                        Discover(objectID: "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2"), timeout: .seconds(30)
                    ).first()
                    #expect(byID.event.object?.name == "Desk lamp")
                    let byExternalID = try await asker.discover(Discover(externalID: "LX-1"), timeout: .seconds(30))
                        .first()
                    #expect(byExternalID.event.object?.objectID == "8d2f4b6a-1c3e-4f5a-b7d9-e1f3a5c7b9d2")
                    var names: Set<String> = []
                    for try await resolve in try await asker.discover(
                        Discover(objectTypes: ["com.example.Light"]), timeout: .seconds(30))
                    {
                        names.insert(resolve.event.object?.name ?? "?")
                        if names.count == 2 { break }
                    }
                    #expect(names == ["Desk lamp", "Hall light"])
                }
            }
        }
    }

    @Test func answersQueriesWithTheObjectsItsFilterKeeps() async throws {
        try await TestBroker.withBroker { broker in
            let asker = try Agent(configuration: RunningAgents.configuration("Asker", broker: broker))
            let container = try provider(broker)
            try await RunningAgents.run([asker]) {
                try await RunningContainers.run(container) {
                    let bright = try ObjectFilter(json: ["conditions": ["brightness", [2, 0.5]]])
                    let retrieve = try await asker.query(
                        Query(objectTypes: ["com.example.Light"], filter: bright), timeout: .seconds(30)
                    ).first()
                    #expect(retrieve.event.objects.map(\.name) == ["Desk lamp"])
                    let ordered = try ObjectFilter(json: ["orderByProperties": [["name", "Desc"]]])
                    let all = try await asker.query(
                        Query(coreTypes: [.coatyObject], filter: ordered), timeout: .seconds(30)
                    ).first()
                    #expect(all.event.objects.map(\.name) == ["Hall light", "Desk lamp"])
                }
            }
        }
    }

    @Test func anObjectThatDoesNotDecodeIsABootstrapError() async throws {
        try await TestBroker.withBroker { broker in
            let error = #expect(throws: ContainerError.self) {
                try Container(
                    components: Components(controllers: [.objectProvider()]),
                    configuration: RunningContainers.configuration(
                        "Provider", broker: broker,
                        options: ["ObjectProviderController": ["objects": [["name": "no type"]]]]))
            }
            #expect(error?.code == .invalidOptions)
            #expect(error?.detail.contains("objects[0]") == true)
        }
    }
}
