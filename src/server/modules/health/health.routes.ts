import { Hono } from 'hono';
import { preparedJson, type PreparedRoute } from '../../http/prepared-answers.ts';
import type { Storage } from '../../storage/storage.ts';

/** How long one database check answers for: probes and load balancers may call this many times a second. */
const checkTtlMs = 1_000;

export type HealthCheck = ReturnType<typeof createHealthCheck>;

/** Whether the database answers, asked at most once per second whoever asks. */
export function createHealthCheck(deps: { storage: Pick<Storage, 'ping'>; now?: () => number }) {
  const now = deps.now ?? Date.now;
  let last: { at: number; ok: Promise<boolean>; result?: boolean } | undefined;
  return {
    check(): Promise<boolean> {
      if (!last || now() - last.at >= checkTtlMs) {
        const current: NonNullable<typeof last> = {
          at: now(),
          ok: deps.storage.ping(),
        };
        void current.ok.then((ok) => (current.result = ok));
        last = current;
      }
      return last.ok;
    },
    /** The last check's result while it still answers, without waiting; undefined when a check is due or under way. */
    recent(): boolean | undefined {
      return last && now() - last.at < checkTtlMs ? last.result : undefined;
    },
  };
}

const healthy = { status: 'ok', database: 'ok' } as const;
const unhealthy = { status: 'error', database: 'unreachable' } as const;

// No cache headers: a JSON answer without Last-Modified is not stored by browsers or proxies anyway.
export function createHealthRoutes(health: HealthCheck) {
  return new Hono().get('/', async (c) => ((await health.check()) ? c.json(healthy) : c.json(unhealthy, 503)));
}

/** The same answers, prepared (http/prepared-answers.ts); a check that is due is left to the route above. */
export function preparedHealth(health: HealthCheck): PreparedRoute {
  const answers = { ok: preparedJson(200, healthy), unreachable: preparedJson(503, unhealthy) };
  return () => {
    const ok = health.recent();
    return ok === undefined ? undefined : ok ? answers.ok : answers.unreachable;
  };
}
