import { authMessages } from '../../common/auth.messages.ts';
import { LocalWriteError } from './local-write-error.ts';
import { ApiError, NetworkError, TimeoutError } from './api.ts';

export interface ErrorTexts {
  /** What to say when the server could not be reached, instead of the general offline text. */
  offline?: string;
  /** What to say for a refusal with this code, instead of the server's message. */
  codes?: Readonly<Record<string, string>>;
}

/**
 * The one place a failure becomes the text the user reads. A refusal says the server's message (it sends the
 * spec's texts) unless `texts.codes` names its code; a server fault (5xx, or an answer that is not our error
 * shape) and anything unexpected say `fallback`. A timeout, and a write the device refused to store (no room,
 * storage lost), say their own message.
 */
export function errorText(
  error: unknown,
  fallback: string = authMessages.somethingWentWrong,
  texts: ErrorTexts = {},
): string {
  if (error instanceof TimeoutError || error instanceof LocalWriteError) return error.message;
  if (error instanceof NetworkError) return texts.offline ?? error.message;
  if (error instanceof ApiError) {
    const byCode = texts.codes?.[error.code];
    if (byCode !== undefined) return byCode;
    return error.status >= 500 || error.code === 'unknown' ? fallback : error.message;
  }
  return fallback;
}
