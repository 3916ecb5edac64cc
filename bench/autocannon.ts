import { createRequire } from 'node:module';

// autocannon ships no type declarations: this is the part of its API the benchmarks use.
export interface AutocannonResult {
  /** `total` answered; `sent` includes the requests still unanswered when the run ended. */
  requests: { average: number; total: number; sent: number };
  /** `max`: the slowest answer. */
  latency: { p50: number; p99: number; average: number; max: number };
  /** Answers by status code: `{ '503': { count } }`. */
  statusCodeStats: Record<string, { count: number }>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** One request of a sequence; with `workers`, `setupRequest` is the path of a CommonJS module exporting the function. */
export interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: string;
  /** Session cookies a `setupRequest` module of ours takes in turn (autocannon passes unknown fields on). */
  cookies?: string[];
  /** For bench/as-next-user-mixed.cjs: this request is a vote or an answer on one of `questions`. */
  write?: 'vote' | 'answer';
  questions?: string[];
}

type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  workers?: number;
  /** At most this many requests a second on each connection (else each waits only for the last answer). */
  connectionRate?: number;
  /** Latencies as measured, without the samples autocannon adds for requests that took longer than 1 / rate. */
  ignoreCoordinatedOmission?: boolean;
  headers?: Record<string, string>;
  /** Seconds without an answer after which a request counts as a timeout (and its connection starts again): 10. */
  timeout?: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
