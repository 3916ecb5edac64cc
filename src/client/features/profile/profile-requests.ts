import { profileMessages } from '../../../common/profile.ts';
import { isOffline, isSessionEnded, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, type FormErrors } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';

/** A failed request in the spec's words: `fallback` for a server fault, this page's offline text, and `codes`. */
export const failureText = (error: unknown, fallback: string, codes?: Record<string, string>) =>
  errorText(error, fallback, { offline: profileMessages.offline, codes });

/** Writes need the server; offline they say so and change nothing (`true` when offline). */
export function refuseOffline(): boolean {
  if (!isOffline()) return false;
  toast.error(profileMessages.offline);
  return true;
}

/** Turns a failed account change into what its form shows: offline and an ended session have their own ways. */
export function accountErrors(error: unknown): FormErrors {
  if (error instanceof NetworkError) return { form: profileMessages.offline, fields: {} };
  // The session-ended dialog says it; the form keeps what was typed for after the login.
  if (isSessionEnded(error)) return { fields: {} };
  return toFormErrors(error);
}
