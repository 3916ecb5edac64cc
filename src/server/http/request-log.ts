import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

/** One structured line per request: id, method, path, status, duration. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const requestId = crypto.randomUUID();
    c.header('x-request-id', requestId);
    await next();
    logger.info(
      { requestId, method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round((performance.now() - started) * 10) / 10 },
      'request',
    );
  };
}
