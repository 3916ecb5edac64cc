import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An expected failure: the error handler turns it into `{ error: { code, message, fields? } }`. It carries no
 * stack trace: a refusal is an answer, not a fault, and building the trace cost about 2 % of a refused request.
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: ContentfulStatusCode;
  readonly fields: Record<string, string> | undefined;
  /** For a 429 or 503: when to try again, sent as `Retry-After`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(args: {
    code: string;
    message: string;
    status: ContentfulStatusCode;
    fields?: Record<string, string>;
    retryAfterSeconds?: number;
  }) {
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(args.message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.code = args.code;
    this.status = args.status;
    this.fields = args.fields;
    this.retryAfterSeconds = args.retryAfterSeconds;
  }
}

export const createError = (args: ConstructorParameters<typeof AppError>[0]) => new AppError(args);

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

export const createUnauthenticatedError = () =>
  createError({ code: 'auth.unauthenticated', message: 'Please log in to continue.', status: 401 });

export const createForbiddenError = () =>
  createError({ code: 'auth.forbidden', message: 'You are not allowed to do this.', status: 403 });

export const createValidationError = (fields: Record<string, string>) =>
  createError({
    code: 'request.invalid',
    message: fields._form ?? Object.values(fields)[0] ?? 'The request is not valid.',
    status: 400,
    fields,
  });

/** What a request refused at saturation says (admission.ts, and storage that waited too long for its turn). */
export const busyMessage = 'TutorBook is very busy right now. Please try again in a moment.';

/** Seconds a client refused at saturation is told to wait (`Retry-After`). */
export const busyRetryAfterSeconds = 2;

/** 503 with `Retry-After`: the server is saturated; nothing was done, and the same request may be sent again. */
export const createBusyError = () =>
  createError({ code: 'server.busy', message: busyMessage, status: 503, retryAfterSeconds: busyRetryAfterSeconds });
