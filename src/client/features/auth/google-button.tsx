import { useEffect, useState } from 'react';
import { errorText } from '../../lib/error-text.ts';
import { useSession } from '../../lib/session.tsx';
import { authApi } from './auth-api.ts';

let googleEnabled: Promise<boolean> | undefined;
const isGoogleEnabled = () =>
  (googleEnabled ??= authApi.config().then(
    (c) => c.googleSignIn,
    () => false,
  ));

/** Shown only when the server has Google configured; failures appear inline (spec §8). */
export function GoogleButton({ label }: { label: 'Sign up with Google' | 'Continue with Google' }) {
  const [enabled, setEnabled] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { beforeLogin } = useSession();
  useEffect(() => {
    let live = true;
    void isGoogleEnabled().then((v) => live && setEnabled(v));
    return () => {
      live = false;
    };
  }, []);
  if (!enabled) return null;
  return (
    <div className="mt-4">
      <div className="my-4 flex items-center gap-3 text-sm text-slate-500 dark:text-slate-400" aria-hidden>
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" /> or{' '}
        <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
      </div>
      <button
        type="button"
        className="btn-secondary w-full"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(undefined);
          try {
            await beforeLogin();
            await authApi.startGoogle();
          } catch (e) {
            setError(errorText(e));
            setBusy(false);
          }
        }}
      >
        <svg aria-hidden viewBox="0 0 24 24" width="20" height="20">
          <path
            fill="#EA4335"
            d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.9-5.5 3.9-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.2.8 3.9 1.5l2.7-2.6C16.9 3.1 14.7 2 12 2 6.5 2 2 6.5 2 12s4.5 10 10 10c5.8 0 9.6-4.1 9.6-9.8 0-.7-.1-1.2-.2-1.7H12z"
          />
        </svg>
        {label}
      </button>
      {error && (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
