import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { formatRand } from '../../../common/money.ts';
import {
  buyableMonths,
  formatMonth,
  packageMessages,
  type Package,
  type PackageOffer,
} from '../../../common/packages.ts';
import { sastDate } from '../../../common/sast.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { Notice } from '../../components/notice.tsx';
import { errorText } from '../../lib/error-text.ts';
import { useSession } from '../../lib/session.tsx';
import { rulesOf, perHour, scopeOf } from './package-words.ts';
import { packagesApi } from './packages-api.ts';
import { ReadFailed } from './read-failed.tsx';
import { useOnlineRead } from './use-online-read.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The monthly packages on /offers (issue 37 §3, the home page's "a once-off monthly payment is cheaper"): each
 * offer with its hours, price, price per hour and rules; a signed-in visitor buys one for this month or the next
 * and is given its reference to pay under. Read from the server while online; buying needs the connection.
 */
export function PackageOffers() {
  const headingId = useId();
  const offers = useOnlineRead('offers', (signal) => packagesApi.offers(signal));
  const [bought, setBought] = useState<Package | null>(null);
  const list = offers.data ?? [];
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-xl font-semibold">
        Monthly packages
      </h2>
      <p className={`mt-2 max-w-2xl ${muted}`}>
        Pay once for a month of sessions: an hour costs less than a single session. Sessions a tutor confirms in the
        package’s subject draw their hours from it.
      </p>
      {bought && (
        <Notice tone="info" className="mt-4">
          <span className="block font-semibold">{packageMessages.bought}</span>
          Pay {formatRand(bought.priceCents)} by EFT with the reference{' '}
          <span className="font-mono font-semibold">{bought.paymentReference}</span>. Your{' '}
          <Link className="link" to="/student-dashboard">
            dashboard
          </Link>{' '}
          shows it and its balance.
        </Notice>
      )}
      {!offers.online && !offers.data ? (
        <Notice tone="offline" className="mt-4">
          The monthly packages show when you are online.
        </Notice>
      ) : offers.failed ? (
        <ReadFailed text={packageMessages.loadFailed} onRetry={offers.reload} className="mt-4" />
      ) : !offers.data ? (
        <p role="status" className={`mt-4 ${muted}`}>
          Loading packages…
        </p>
      ) : list.length === 0 ? (
        <p className={`mt-4 ${muted}`}>{packageMessages.none}</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {list.map((offer) => (
            <li key={offer.id} className="flex">
              <OfferCard offer={offer} online={offers.online} onBought={setBought} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OfferCard({
  offer,
  online,
  onBought,
}: {
  offer: PackageOffer;
  online: boolean;
  onBought: (pkg: Package) => void;
}) {
  const nameId = useId();
  const monthId = useId();
  const { session } = useSession();
  const confirm = useConfirm();
  const months = buyableMonths(sastDate(new Date()));
  const [month, setMonth] = useState(months[0]!);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function buy() {
    const yes = await confirm({
      title: 'Buy this package?',
      message: packageMessages.buyConfirm(offer.name, offer.priceCents, month),
      confirmLabel: 'Buy package',
      cancelLabel: 'Not now',
    });
    if (!yes) return;
    setBusy(true);
    setError(null);
    try {
      onBought(await packagesApi.buy({ id: crypto.randomUUID(), offerId: offer.id, month }));
    } catch (failure) {
      setError(errorText(failure, 'Failed to buy the package. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article aria-labelledby={nameId} className="card flex w-full flex-col gap-2">
      <h3 id={nameId} className="text-lg font-semibold">
        {offer.name}
      </h3>
      <p className={muted}>{scopeOf(offer)}</p>
      <p>
        <span className="text-2xl font-bold">{formatRand(offer.priceCents)}</span>{' '}
        <span className={`text-sm ${muted}`}>
          for {offer.hours} {offer.hours === 1 ? 'hour' : 'hours'} in a month ({perHour(offer)})
        </span>
      </p>
      <p className={`text-sm ${muted}`}>{rulesOf(offer)}</p>
      <div className="mt-auto pt-2">
        {!session.me ? (
          <Link className="btn-secondary" to="/login">
            Log in to buy
          </Link>
        ) : (
          <div className="flex flex-wrap items-end gap-3">
            <div className="flex flex-col gap-1">
              <label htmlFor={monthId} className="text-sm font-medium">
                Month
              </label>
              <select
                id={monthId}
                className="input"
                value={month}
                onChange={(e) => setMonth(e.target.value)}
                disabled={busy}
              >
                {months.map((m) => (
                  <option key={m} value={m}>
                    {formatMonth(m)}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className="btn-primary"
              disabled={busy || !online}
              onClick={() => void buy()}
              aria-describedby={nameId}
            >
              {busy ? 'Buying…' : 'Buy package'}
            </button>
          </div>
        )}
        {!online && session.me && <p className={`mt-2 text-sm ${muted}`}>{packageMessages.offline}</p>}
        {error && (
          <Notice tone="error" className="mt-3">
            {error}
          </Notice>
        )}
      </div>
    </article>
  );
}
