import Agent
import CoatyStorage
import CoreTypes
import Logging
import ServiceLifecycle

extension EventStream {
    /// Answers each request with `respond` until the container stops or the agent stops.
    ///
    /// A request that cannot be answered because of what it asks (a `StorageError` other than
    /// `databaseFailed`) is left unanswered and logged at debug level; any other error ends the loop.
    func answerEach<Request: RequestEvent>(
        logger: Logger, _ respond: @Sendable (IncomingRequest<Request>) async throws -> Void
    ) async throws where Element == IncomingRequest<Request> {
        do {
            for try await request in cancelOnGracefulShutdown() {
                do {
                    try await respond(request)
                } catch let error as StorageError where error.code != .databaseFailed {
                    logger.debug(
                        "Request not answered",
                        metadata: ["coaty.correlation": "\(request.correlationID ?? "-")", "error": "\(error)"])
                }
            }
        } catch let error as AgentError where error.code == .stopped {
            return  // the agent stopped: nothing more arrives
        }
    }
}
