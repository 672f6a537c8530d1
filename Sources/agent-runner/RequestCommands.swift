import Agent
import ArgumentParser
import CoreTypes

/// `discover --object-id ID | --external-id ID | --object-type T… | --core-type C…`: prints each Resolve.
struct DiscoverCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "Publishes a Discover and prints each Resolve.",
        discussion: """
            Give an object id, an external id (optionally with types, or with an object id), or \
            object types or core types. Exit code 4 when nothing resolves before the timeout.
            """)

    @Option(name: .customLong("object-id"), help: "Discover the object with this id.")
    var objectID: String?

    @Option(name: .customLong("external-id"), help: "Discover objects with this external id.")
    var externalID: String?

    @Option(name: .customLong("object-type"), parsing: .upToNextOption, help: "Discover objects of these object types.")
    var objectTypes: [String] = []

    @Option(
        name: .customLong("core-type"), parsing: .upToNextOption,
        help: "Discover objects of these core types (Identity, Task, …).")
    var coreTypes: [String] = []

    @OptionGroup(title: "Request Options") var request: RequestOptions

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let coreTypes = try Input.coreTypes(self.coreTypes, option: "--core-type")
        let objectTypes = self.objectTypes.isEmpty ? nil : self.objectTypes
        let typeLists = coreTypes.isEmpty ? nil : coreTypes
        let discover: Discover
        switch (objectID, externalID) {
        case (let objectID?, nil):
            guard objectTypes == nil, typeLists == nil else {
                throw RunnerError.usage(
                    "--object-id", "a Discover by object id cannot also give --object-type or --core-type")
            }
            discover = Discover(objectID: objectID)
        case (let objectID?, let externalID?):
            guard objectTypes == nil, typeLists == nil else {
                throw RunnerError.usage("--object-id", "a Discover by external and object id cannot also give types")
            }
            discover = Discover(externalID: externalID, objectID: objectID)
        case (nil, let externalID?):
            discover = Discover(externalID: externalID, objectTypes: objectTypes, coreTypes: typeLists)
        case (nil, nil):
            switch (objectTypes, typeLists) {
            case (let types?, nil): discover = Discover(objectTypes: types)
            case (nil, let types?): discover = Discover(coreTypes: types)
            case (.some, .some):
                throw RunnerError.usage(
                    "--core-type", "without --external-id give --object-type or --core-type, not both")
            case (nil, nil):
                throw RunnerError.usage("discover", "give --object-id, --external-id, --object-type or --core-type")
            }
        }
        try await context.request(discover, option: "discover", options: request, name: "agent-runner discover")
    }
}

/// `query --object-type T… | --core-type C… [--filter JSON]`: prints each Retrieve.
struct QueryCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "query", abstract: "Publishes a Query and prints each Retrieve.",
        discussion: """
            Exit code 4 when nothing is retrieved before the timeout. With --live, the result set \
            is kept current from the Retrieves (within --timeout) and the later Advertise, Update \
            and Deadvertise events of objects of the query's types, and printed each time it \
            changes (JSON lines with objects, added, removed and changed) until SIGINT or SIGTERM \
            (exit 0); the filter's skip and take page the Retrieves only.
            """)

    @Option(name: .customLong("object-type"), parsing: .upToNextOption, help: "Query objects of these object types.")
    var objectTypes: [String] = []

    @Option(name: .customLong("core-type"), parsing: .upToNextOption, help: "Query objects of these core types.")
    var coreTypes: [String] = []

    @Option(
        help:
            #"The object filter as JSON, like '{"conditions":["name",[6,"Lamp%"]],"take":10}' (operators are coaty-js codes: 6 is Like)."#
    )
    var filter: String?

    @Flag(help: "Keep the result set current and print it each time it changes, until SIGINT.")
    var live = false

    @OptionGroup(title: "Request Options") var request: RequestOptions

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let coreTypes = try Input.coreTypes(self.coreTypes, option: "--core-type")
        let objectFilter = try Input.objectFilter(filter, option: "--filter")
        let query: Query
        switch (objectTypes.isEmpty, coreTypes.isEmpty) {
        case (false, true): query = Query(objectTypes: objectTypes, filter: objectFilter)
        case (true, false): query = Query(coreTypes: coreTypes, filter: objectFilter)
        case (false, false): throw RunnerError.usage("--core-type", "give --object-type or --core-type, not both")
        case (true, true): throw RunnerError.usage("query", "give --object-type or --core-type")
        }
        guard live else {
            try await context.request(query, option: "query", options: request, name: "agent-runner query")
            return
        }
        guard request.maxResponses == nil else {
            throw RunnerError.usage("--max-responses", "a --live query takes every response; leave it out")
        }
        try await context.liveQuery(query, timeout: request.timeout.duration)
    }
}

/// `update --object JSON | --file F`: prints each Complete.
struct UpdateCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Publishes an Update and prints each Complete.",
        discussion: "Exit code 4 when nothing completes before the timeout.")

    @Option(help: "The updated object as JSON.")
    var object: String?

    @Option(help: "A JSON file with the updated object ('-' reads standard input).")
    var file: String?

    @OptionGroup(title: "Request Options") var request: RequestOptions

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        let (json, option) = try Input.objectJSON(object: object, file: file)
        let update = Update(object: try Input.object(json, option: option))
        try await context.request(update, option: option, options: request, name: "agent-runner update")
    }
}

/// `call OPERATION [--params JSON] [--context-filter JSON]`: prints each Return.
struct CallCommand: RunnerCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Publishes a Call and prints each Return.",
        discussion: "Exit code 4 when nothing returns before the timeout, 5 when every Return is an error.")

    @Argument(help: "The operation name, like com.example.switchLight.")
    var operation: String

    @Option(help: #"The parameters: a JSON array (by position) or object (by name), like '{"state":"on"}'."#)
    var params: String?

    @Option(
        name: .customLong("context-filter"),
        help: "A context filter as JSON; only callees whose context matches answer.")
    var contextFilter: String?

    @OptionGroup(title: "Request Options") var request: RequestOptions

    @OptionGroup(title: "Global Options") var global: GlobalOptions

    func execute(in context: CommandContext) async throws {
        var parameters: Call.Parameters?
        if let params {
            switch try Input.json(params, option: "--params") {
            case .array(let values): parameters = .positional(values)
            case .object(let members): parameters = .named(members)
            case let other:
                throw RunnerError.usage("--params", "expected a JSON array or object, found \(other.typeName)")
            }
        }
        var filter: ContextFilter?
        if let contextFilter {
            do {
                filter = try ContextFilter(json: Input.json(contextFilter, option: "--context-filter"))
            } catch let error as RunnerError {
                throw error
            } catch {
                throw RunnerError.usage("--context-filter", "not a valid context filter: \(error)")
            }
        }
        let call = Call(operation: operation, parameters: parameters, filter: filter)
        try await context.request(call, option: "OPERATION", options: request, name: "agent-runner call") { response in
            response.error.map { "\($0.message.stringValue ?? "\($0.message)") (code \($0.code))" }
        }
    }
}
