import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { isAppError } from './errors.ts';

/**
 * The one place errors become responses: expected ones keep their code; the rest are logged and hidden. None is
 * kept by a cache: a CDN in front (Firebase Hosting's) keeps an answer without Cache-Control, a 404 for 10 minutes.
 */
export function errorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    c.header('cache-control', 'no-store');
    if (isAppError(error)) {
      if (error.retryAfterSeconds !== undefined) c.header('retry-after', String(Math.ceil(error.retryAfterSeconds)));
      return c.json(
        { error: { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) } },
        error.status,
      );
    }
    if (error instanceof HTTPException && error.status < 500) {
      const code = error.status === 413 ? 'request.too_large' : 'request.invalid';
      return c.json({ error: { code, message: error.message || 'The request is not valid.' } }, error.status);
    }
    // A client that hangs up mid-request (a phone losing signal during an upload) is not our error.
    if (c.req.raw.signal.aborted || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      logger.info(
        { path: c.req.path, method: c.req.method },
        'client closed the connection before the request was complete',
      );
      return c.json({ error: { code: 'request.aborted', message: 'The request did not arrive whole.' } }, 400);
    }
    logger.error({ err: error, path: c.req.path }, 'unhandled error');
    return c.json(
      { error: { code: 'internal', message: 'Something went wrong on our side. Please try again later.' } },
      500,
    );
  };
}
