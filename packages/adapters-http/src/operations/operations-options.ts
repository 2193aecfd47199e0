/** Throws (or rejects) when the service cannot serve requests, typically because its database does not answer. */
export type ReadinessCheck = () => Promise<void>;

/** A metrics exposition (Prometheus text), rendered on each scrape. The HTTP adapter knows no metrics library. */
export interface MetricsEndpoint {
  readonly contentType: string;
  render(): Promise<string>;
}

/** One finished request, as the metrics see it. `route` is the route pattern, never the raw URL. */
export interface RequestObservation {
  readonly method: string;
  readonly route: string;
  readonly statusCode: number;
  readonly durationSeconds: number;
}

export type RequestObserver = (observation: RequestObservation) => void;

export interface OperationsOptions {
  /** `GET /readyz` answers 503 not_ready when it fails; without it the service is always ready. */
  readonly readiness?: ReadinessCheck;
  /** Serves `GET /metrics` on this app; leave it out when metrics are disabled or served on another port. */
  readonly metrics?: MetricsEndpoint;
  /** When set, `GET /metrics` needs `Authorization: Bearer <metricsToken>` (401 unauthenticated without it). */
  readonly metricsToken?: string;
  /** Called once per finished request (for request counts and latency histograms). */
  readonly observeRequest?: RequestObserver;
}

/** The route label of a request that matched no route: raw URLs would make the label set unbounded. */
export const unmatchedRoute = 'unmatched';
