import { CreditCard } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatRand } from '../../../common/money.ts';
import { payFastMessages, payFastReturnParam, type PayFastTarget } from '../../../common/payfast.ts';
import { Notice } from '../../components/notice.tsx';
import { ApiError, isOffline, isSessionEnded } from '../../lib/api.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { useSyncStatus } from '../../offline/hooks.ts';
import { bookingsApi } from './bookings-api.ts';

/** Where the device remembers whether the site takes payments online, so that the button shows at once next time. */
const payOnlineKey = 'tutorbook:pay-online';
let asked: Promise<boolean> | undefined;

function rememberedPayOnline(): boolean {
  try {
    return localStorage.getItem(payOnlineKey) === 'yes';
  } catch {
    return false;
  }
}

/**
 * Whether students may pay online here (`GET /api/config`, PayFast configured), asked once per visit. Until the
 * server answers, what it said last on this device; offline, the button says it needs the connection.
 */
function usePayOnline(needed: boolean): boolean {
  const [on, setOn] = useState(rememberedPayOnline);
  useEffect(() => {
    // Asked only where something is owing: a dashboard with nothing to pay fetches nothing more for it.
    if (!needed || isOffline()) return;
    let live = true;
    asked ??= bookingsApi
      .rules()
      .then((rules) => {
        try {
          localStorage.setItem(payOnlineKey, rules.payOnline ? 'yes' : 'no');
        } catch {
          // Storage full or blocked: the answer still holds for this visit.
        }
        return rules.payOnline;
      })
      .catch(() => {
        asked = undefined;
        return rememberedPayOnline();
      });
    void asked.then((value) => live && setOn(value));
    return () => {
      live = false;
    };
  }, [needed]);
  return on;
}

/**
 * "Pay R360 now" (issue 37 §4): what the student owes on a booking or package, paid by card or instant EFT on
 * PayFast's page, where the site is set up for it. The server signs the checkout for what is owing at that moment;
 * the browser then goes to PayFast, which brings the student back to the dashboard. Nothing shows where the site
 * takes EFT only, or when nothing is owing.
 */
export function PayNow({
  target,
  id,
  owingCents,
  describedBy,
}: {
  target: PayFastTarget;
  id: string;
  owingCents: number;
  /** The id of what is paid for (the card's heading), so the button is heard with it. */
  describedBy?: string;
}) {
  const payOnline = usePayOnline(owingCents > 0);
  const { online } = useSyncStatus();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ tone: 'offline' | 'error'; text: string }>();
  if (!payOnline || owingCents <= 0) return null;

  async function pay() {
    if (!online) {
      setProblem({ tone: 'offline', text: payFastMessages.offline });
      return;
    }
    setProblem(undefined);
    setBusy(true);
    try {
      const checkout = await bookingsApi.payFastCheckout({ for: target, id });
      window.location.assign(checkout.url);
    } catch (error) {
      setBusy(false);
      if (isSessionEnded(error)) return;
      setProblem(
        error instanceof ApiError
          ? { tone: 'error', text: error.message }
          : navigator.onLine
            ? { tone: 'error', text: 'Could not reach the server. Try again.' }
            : { tone: 'offline', text: payFastMessages.offline },
      );
    }
  }

  return (
    <div className="mt-4 flex flex-col items-start gap-1">
      <button
        type="button"
        className="btn-primary"
        aria-describedby={describedBy}
        aria-busy={busy}
        disabled={busy}
        onClick={() => void pay()}
      >
        <CreditCard aria-hidden size={18} />
        {busy ? payFastMessages.going : `${payFastMessages.payNow}: ${formatRand(owingCents)}`}
      </button>
      <span className="text-sm text-slate-600 dark:text-slate-400">{payFastMessages.payNowHint}</span>
      {problem && (
        <Notice tone={problem.tone} className="mt-1">
          {problem.text}
        </Notice>
      )}
    </div>
  );
}

/**
 * What PayFast said when it brought the student back (`?payfast=paid|cancelled` on the dashboard): a line at the
 * top of the dashboard until they leave it. The payment itself shows on its card once PayFast's notice is in.
 * Read after the first render: the dashboard's HTML was rendered without the query, and hydration must match it.
 */
export function PayFastReturn({ search }: { search: string }) {
  const hydrated = useHydrated();
  const outcome = hydrated ? new URLSearchParams(search).get(payFastReturnParam) : null;
  if (outcome !== 'paid' && outcome !== 'cancelled') return null;
  return (
    <Notice tone="info" className="mt-4">
      {outcome === 'paid' ? payFastMessages.returned : payFastMessages.cancelled}
    </Notice>
  );
}
