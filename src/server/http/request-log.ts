import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

/** The request line for what the app answers; prepared answers write theirs in prepared-answers.ts. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logRequest(logger, c.req.method, c.req.path, c.res.status, started);
  };
}

/**
 * One line per request: method, path, status and duration in ms, the fields an operator reads. The path
 * goes without its query (search words and links' tokens may be personal or secret), and the one path
 * that holds a secret, better-auth's password reset link, goes without its token.
 */
export function logRequest(logger: Logger, method: string, path: string, status: number, started: number) {
  logger.info(
    { method, path: loggedPath(path), status, ms: Math.round((performance.now() - started) * 10) / 10 },
    'request',
  );
}

const resetLink = '/api/auth/reset-password/';

function loggedPath(path: string) {
  return path.startsWith(resetLink) ? `${resetLink}…` : path;
}
