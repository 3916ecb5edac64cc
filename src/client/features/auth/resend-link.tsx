import { useEffect, useState } from 'react';
import { errorText } from '../../lib/error-text.ts';
import { authApi } from './auth-api.ts';

/** The server sends at most one verification e-mail a minute to an address; the button waits as long. */
const cooldownSeconds = 60;

/**
 * "Send it again" for the verification link. `justSent`: a link went out a moment ago (sign-up), so the
 * button starts by waiting. The outcome is announced to screen readers.
 */
export function ResendLinkButton({
  email,
  justSent = false,
  className = '',
}: {
  email: string;
  justSent?: boolean;
  className?: string;
}) {
  const [wait, setWait] = useState(justSent ? cooldownSeconds : 0);
  const [status, setStatus] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  async function send() {
    setBusy(true);
    try {
      await authApi.resendVerification(email);
      setStatus({
        ok: true,
        text: `A link is on its way to ${email}. If none arrives in a few minutes, look in your spam folder.`,
      });
      setWait(cooldownSeconds);
    } catch (error) {
      setStatus({ ok: false, text: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className={className}>
      <button
        type="button"
        className="btn-secondary w-full"
        disabled={busy || wait > 0 || !email}
        onClick={() => void send()}
      >
        {busy ? 'Sending…' : wait > 0 ? `Send it again (in ${wait} s)` : 'Send it again'}
      </button>
      <p
        role="status"
        className={`mt-2 text-sm ${status?.ok === false ? 'font-medium text-red-700 dark:text-red-400' : 'text-slate-700 dark:text-slate-300'}`}
      >
        {status?.text}
      </p>
    </div>
  );
}
