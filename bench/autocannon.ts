import { createRequire } from 'node:module';

// autocannon ships no type declarations: this is the part of its API the benchmarks use.
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; workers?: number }) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
