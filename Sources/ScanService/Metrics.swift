import Foundation
import Hummingbird
import ScanJobs
import Synchronization

/// What `GET /metrics` reports, in Prometheus's text exposition format (0.0.4). Counters
/// live in memory (they start again at 0 with the process, as Prometheus expects); the job
/// gauges are read from the store at each scrape.
public final class ServiceMetrics: Sendable {
    /// Upper bounds of the job duration histogram, in seconds.
    static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

    private struct RequestKey: Hashable { var method: String; var route: String; var status: Int }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var restarts: [String: Int] = [:]
        var durationCounts = [Int](repeating: 0, count: ServiceMetrics.durationBuckets.count)
        var durationSum = 0.0
        var durationCount = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// One answered request. `route` is the route's pattern (`/v1/jobs/{id}`), never the path
    /// itself, so that ids do not make new series.
    func countRequest(method: String, route: String, status: Int) {
        state.withLock { $0.requests[RequestKey(method: method, route: route, status: status), default: 0] += 1 }
    }

    /// A worker replaced before its time: `crashed`, `timeout`, `failed` (its engine failed),
    /// `canceled` (its job was), or `recycled` (it had run `--recycle-after` jobs).
    func countRestart(reason: String) {
        state.withLock { $0.restarts[reason, default: 0] += 1 }
    }

    /// How long a worker took over one attempt at a job that it answered.
    func observeJobDuration(_ seconds: Double) {
        state.withLock { s in
            for (i, bound) in Self.durationBuckets.enumerated() where seconds <= bound { s.durationCounts[i] += 1 }
            s.durationSum += seconds
            s.durationCount += 1
        }
    }

    /// The exposition: these counters, and the store's and the queue's state as given.
    /// The metrics as Prometheus text. `jobs`: the store's counts by state, nil when the store did not answer; then
    /// `scanextract_job_store_up` is 0 and the job counts and the queue's depth are left out.
    func render(jobs: [JobStatus: Int]?, waitingInk: Int) -> String {
        let s = state.withLock { $0 }
        var out = ""
        out += "# HELP scanextract_http_requests_total HTTP requests answered, by route pattern and status.\n"
        out += "# TYPE scanextract_http_requests_total counter\n"
        let requests = s.requests.sorted {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }
        for (key, count) in requests {
            let labels =
                "method=\"\(Self.escape(key.method))\",route=\"\(Self.escape(key.route))\",status=\"\(key.status)\""
            out += "scanextract_http_requests_total{\(labels)} \(count)\n"
        }
        out += "# HELP scanextract_job_store_up Whether the job store answered this scrape (1) or not (0).\n"
        out += "# TYPE scanextract_job_store_up gauge\n"
        out += "scanextract_job_store_up \(jobs == nil ? 0 : 1)\n"
        if let jobs {
            out += "# HELP scanextract_jobs Jobs in the store, by state.\n"
            out += "# TYPE scanextract_jobs gauge\n"
            for status in JobStatus.allCases {
                out += "scanextract_jobs{state=\"\(status.rawValue)\"} \(jobs[status] ?? 0)\n"
            }
            out += "# HELP scanextract_queue_depth Jobs and ink requests waiting for a worker.\n"
            out += "# TYPE scanextract_queue_depth gauge\n"
            out += "scanextract_queue_depth \((jobs[.queued] ?? 0) + waitingInk)\n"
        }
        out +=
            "# HELP scanextract_job_duration_seconds Time a worker took over one attempt at a job that it answered.\n"
        out += "# TYPE scanextract_job_duration_seconds histogram\n"
        for (i, bound) in Self.durationBuckets.enumerated() {
            out += "scanextract_job_duration_seconds_bucket{le=\"\(Self.number(bound))\"} \(s.durationCounts[i])\n"
        }
        out += "scanextract_job_duration_seconds_bucket{le=\"+Inf\"} \(s.durationCount)\n"
        out += "scanextract_job_duration_seconds_sum \(Self.number(s.durationSum))\n"
        out += "scanextract_job_duration_seconds_count \(s.durationCount)\n"
        out += "# HELP scanextract_worker_restarts_total Worker processes replaced, by reason.\n"
        out += "# TYPE scanextract_worker_restarts_total counter\n"
        for reason in ["crashed", "timeout", "memory", "failed", "canceled", "recycled"] {
            out += "scanextract_worker_restarts_total{reason=\"\(reason)\"} \(s.restarts[reason] ?? 0)\n"
        }
        return out
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A label value as the format wants it: backslash, double quote and newline escaped.
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// Counts every answered request by its route's pattern (`NotFound` for paths no route has)
/// and status, including those a route answered by throwing a problem.
struct RequestCounter<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        // The route is known once the router has matched the path: read it afterwards.
        func count(_ status: HTTPResponse.Status) {
            metrics.countRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: status.code)
        }
        do {
            let response = try await next(request, context)
            count(response.status)
            return response
        } catch {
            count((error as? any HTTPResponseError)?.status ?? .internalServerError)
            throw error
        }
    }
}
