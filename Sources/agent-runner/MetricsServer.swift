import Agent
import CoreMetrics
import Hummingbird
import Logging
import Prometheus
import ServiceLifecycle

/// `run --metrics HOST:PORT`: `/metrics` in Prometheus text format and `/healthz` (200 while the
/// agent is connected, 503 otherwise, each with a one-line reason) over HTTP.
enum MetricsServer {
    /// Bootstraps swift-metrics with a Prometheus registry, for every agent made afterwards.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }

    /// The HTTP service for `agent`'s registry on `address` (`host:port`).
    ///
    /// - Throws: ``RunnerError`` (exit 2) for an address that is not `HOST:PORT`.
    static func service(
        address: String, registry: PrometheusCollectorRegistry, agent: Agent, logger: Logger
    ) throws -> some Service {
        let address = try ListenAddress(address, option: "--metrics", example: "127.0.0.1:9090")
        let router = Router()
        router.get("metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        router.get("healthz") { _, _ -> Response in
            let state = agent.connectionState
            let online = state == .online
            let text = online ? "ok: connected\n" : "not connected: \(state)\n"
            return Response(
                status: online ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        return Application(
            router: router, configuration: .init(address: .hostname(address.host, port: address.port)), logger: logger)
    }
}
