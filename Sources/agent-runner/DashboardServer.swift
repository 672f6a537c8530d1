import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceLifecycle
import Synchronization

/// `dashboard --listen HOST:PORT`: the page, its style and script (embedded, see
/// ``DashboardAssets``), `/snapshot` (the current snapshot as JSON) and `/live`, a WebSocket that
/// pushes a snapshot every ``pushInterval``; text the page sends on it filters the event log.
enum DashboardServer {
    /// How often each open page gets a snapshot.
    static let pushInterval = Duration.milliseconds(250)

    /// The HTTP service for `hub` on `address`.
    static func service(address: ListenAddress, hub: DashboardHub, logger: Logger) -> some Service {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in asset(DashboardAssets.html, type: "text/html; charset=utf-8") }
        router.get("dashboard.css") { _, _ in asset(DashboardAssets.css, type: "text/css; charset=utf-8") }
        router.get("dashboard.js") { _, _ in asset(DashboardAssets.javaScript, type: "text/javascript; charset=utf-8") }
        router.get("snapshot") { request, _ in
            asset(
                hub.snapshot(logFilter: request.uri.queryParameters["filter"].map(String.init) ?? ""),
                type: "application/json")
        }
        router.ws("live") { inbound, outbound, _ in
            let filter = LogFilter()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: 4096) {
                        if case .text(let text) = message { filter.text.withLock { $0 = text } }
                    }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try await outbound.write(.text(hub.snapshot(logFilter: filter.text.withLock { $0 })))
                        try await Task.sleep(for: pushInterval)
                    }
                }
                // The reader ends when the page goes away, the writer when it cannot write any more.
                try await group.next()
                group.cancelAll()
            }
        }
        return Application(
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(address.host, port: address.port)), logger: logger)
    }

    private static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// The log filter one page has sent.
    private final class LogFilter: Sendable {
        let text = Mutex("")
    }
}
