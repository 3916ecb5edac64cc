import { useId, useState, type FormEvent } from 'react';
import type { Module } from '../../../common/catalogue.ts';
import { formatRand, randToCents } from '../../../common/money.ts';
import {
  lateCancelCountLabels,
  lateCancelCounts,
  packageMessages,
  packageStanding,
  type LateCancelCount,
  type Package,
  type PackageOffer,
} from '../../../common/packages.ts';
import { paymentMessages } from '../../../common/payments.ts';
import { categories, type Category } from '../../../common/roles.ts';
import { sastDate } from '../../../common/sast.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { packageState, packageSummary, packageTitle, perHour, rulesOf, scopeOf } from './package-words.ts';
import { packagesApi } from './packages-api.ts';
import { ReadFailed } from './read-failed.tsx';
import { useOnlineRead } from './use-online-read.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/**
 * The admin's monthly packages (issue 37 §3): offer one (hours of a category, or of one module, in a month, at a
 * price, with its rules), stop or start offering it, and see every package bought, those awaiting payment first,
 * recording their money in place. Read from the server (it needs the connection, as staff changes do).
 */
export function PackagesAdmin({ modules }: { modules: readonly Module[] | undefined }) {
  const offers = useOnlineRead('admin-offers', (signal) => packagesApi.offers(signal));
  const bought = useOnlineRead('admin-packages', (signal) => packagesApi.list(signal));
  return (
    <div className="mt-6 flex flex-col gap-8">
      {!offers.online && !offers.data && (
        <Notice tone="offline">
          You are offline. The packages are read from the server: they appear once you are online.
        </Notice>
      )}
      <OfferForm modules={modules ?? []} onSaved={offers.reload} />
      <OfferList offers={offers.data} failed={offers.failed} reload={offers.reload} />
      <BoughtList packages={bought.data} failed={bought.failed} reload={bought.reload} />
    </div>
  );
}

interface OfferDraft {
  name: string;
  category: Category;
  moduleName: string;
  hours: string;
  price: string;
  carryOver: boolean;
  lateCancel: LateCancelCount;
}

const emptyDraft: OfferDraft = {
  name: '',
  category: 'Mathematics',
  moduleName: '',
  hours: '10',
  price: '',
  carryOver: false,
  lateCancel: 'all',
};

function OfferForm({ modules, onSaved }: { modules: readonly Module[]; onSaved: () => void }) {
  const headingId = useId();
  const [draft, setDraft] = useState<OfferDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof OfferDraft>(key: K, value: OfferDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const ofCategory = modules.filter((m) => m.category === draft.category);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const hours = /^\d+$/.test(draft.hours.trim()) ? Number(draft.hours) : Number.NaN;
    const priceCents = randToCents(draft.price);
    const local: Record<string, string> = {};
    if (!draft.name.trim()) local.name = packageMessages.nameInvalid;
    if (!Number.isInteger(hours) || hours < 1 || hours > 60) local.hours = packageMessages.hoursInvalid;
    if (priceCents === undefined || priceCents < 1) local.priceCents = packageMessages.priceInvalid;
    setErrors(local);
    setMessage(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      await packagesApi.saveOffer({
        id: crypto.randomUUID(),
        name: draft.name.trim(),
        category: draft.category,
        moduleName: draft.moduleName || null,
        hours,
        priceCents: priceCents!,
        carryOver: draft.carryOver,
        lateCancel: draft.lateCancel,
        active: true,
      });
      setDraft(emptyDraft);
      setMessage({ tone: 'info', text: packageMessages.offerSaved });
      onSaved();
    } catch (error) {
      if (error instanceof ApiError) setErrors(error.fields);
      setMessage({ tone: 'error', text: errorText(error, 'Failed to save the package. Please try again.') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate aria-labelledby={headingId} className="card flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <h2 id={headingId} className="text-xl font-semibold">
        Offer a monthly package
      </h2>
      <FormField
        label="Name"
        value={draft.name}
        placeholder="10 hours of Mathematics"
        error={errors.name}
        onChange={(e) => set('name', e.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Category"
          value={draft.category}
          onChange={(e) => setDraft((d) => ({ ...d, category: e.target.value as Category, moduleName: '' }))}
        >
          {categories.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </SelectField>
        <SelectField
          label="Module"
          value={draft.moduleName}
          error={errors.moduleName}
          onChange={(e) => set('moduleName', e.target.value)}
        >
          <option value="">Any module of the category</option>
          {ofCategory.map((m) => (
            <option key={m.id}>{m.name}</option>
          ))}
        </SelectField>
        <FormField
          label="Hours in the month"
          inputMode="numeric"
          value={draft.hours}
          error={errors.hours}
          onChange={(e) => set('hours', e.target.value)}
        />
        <FormField
          label="Price (R)"
          inputMode="decimal"
          value={draft.price}
          placeholder="800"
          error={errors.priceCents}
          onChange={(e) => set('price', e.target.value)}
        />
        <SelectField
          label="A late cancellation"
          value={draft.lateCancel}
          onChange={(e) => set('lateCancel', e.target.value as LateCancelCount)}
        >
          {lateCancelCounts.map((count) => (
            <option key={count} value={count}>
              {lateCancelCountLabels[count]}
            </option>
          ))}
        </SelectField>
        <label className="flex min-h-11 items-center gap-2 self-end font-medium">
          <input
            type="checkbox"
            className="size-5"
            checked={draft.carryOver}
            onChange={(e) => set('carryOver', e.target.checked)}
          />
          Unused hours carry over to the next month
        </label>
      </div>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      <button type="submit" className="btn-primary self-start" disabled={busy}>
        {busy ? 'Saving…' : 'Offer package'}
      </button>
    </form>
  );
}

function OfferList({
  offers,
  failed,
  reload,
}: {
  offers: PackageOffer[] | undefined;
  failed: boolean;
  reload: () => void;
}) {
  const headingId = useId();
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string | null>(null);

  async function toggle(offer: PackageOffer) {
    setBusy(offer.id);
    setError(null);
    try {
      const { id, name, category, moduleName, hours, priceCents, carryOver, lateCancel } = offer;
      await packagesApi.saveOffer({
        ...{ id, name, category, moduleName, hours, priceCents, carryOver, lateCancel },
        active: !offer.active,
      });
      reload();
    } catch (failure) {
      setError(errorText(failure, 'Failed to change the package. Please try again.'));
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Packages offered
      </h2>
      {error && (
        <Notice tone="error" className="mt-3">
          {error}
        </Notice>
      )}
      {failed ? (
        <ReadFailed text={packageMessages.loadFailed} onRetry={reload} className="mt-3" />
      ) : !offers ? (
        <p role="status" className={`mt-3 ${muted}`}>
          Loading packages…
        </p>
      ) : offers.length === 0 ? (
        <p className={`mt-3 ${muted}`}>{packageMessages.none}</p>
      ) : (
        <ul className="mt-3 grid gap-3 sm:grid-cols-2">
          {offers.map((offer) => (
            <li key={offer.id} className="card flex flex-col gap-1">
              <h3 className="font-semibold">{offer.name}</h3>
              <p className={`text-sm ${muted}`}>
                {scopeOf(offer)} · {offer.hours} hours · {formatRand(offer.priceCents)} ({perHour(offer)})
              </p>
              <p className={`text-sm ${muted}`}>{rulesOf(offer)}</p>
              <p className="text-sm font-medium">{offer.active ? 'Offered' : 'No longer offered'}</p>
              <button
                type="button"
                className="btn-secondary mt-2 self-start"
                disabled={busy === offer.id}
                onClick={() => void toggle(offer)}
              >
                {offer.active ? 'Stop offering' : 'Offer again'}
                <span className="sr-only">: {offer.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function BoughtList({
  packages,
  failed,
  reload,
}: {
  packages: Package[] | undefined;
  failed: boolean;
  reload: () => void;
}) {
  const headingId = useId();
  const today = sastDate(new Date());
  // Those waiting for their money first, then the newest.
  const sorted = [...(packages ?? [])].sort(
    (a, b) =>
      Number(packageState(b, today) === 'awaiting-payment') - Number(packageState(a, today) === 'awaiting-payment'),
  );
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-semibold">
        Packages bought
      </h2>
      {failed ? (
        <ReadFailed text={packageMessages.loadFailed} onRetry={reload} className="mt-3" />
      ) : !packages ? (
        <p role="status" className={`mt-3 ${muted}`}>
          Loading packages…
        </p>
      ) : packages.length === 0 ? (
        <p className={`mt-3 ${muted}`}>No student has bought a package yet.</p>
      ) : (
        <ul className="mt-3 flex flex-col gap-3">
          {sorted.map((pkg) => (
            <li key={pkg.id} className="card" data-state={packageState(pkg, today)}>
              <h3 className="font-semibold">
                {pkg.student.name}: {packageTitle(pkg)}
              </h3>
              <p className={`text-sm ${muted}`}>
                Reference <span className="font-mono">{pkg.paymentReference}</span> · {scopeOf(pkg)}
              </p>
              <p className="mt-1">{packageSummary(pkg, today)}</p>
              {packageStanding(pkg).owingCents > 0 && <PackagePayment pkg={pkg} onRecorded={reload} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The package's money, recorded in place: the amount owing by default, by EFT or by hand, dated today. */
function PackagePayment({ pkg, onRecorded }: { pkg: Package; onRecorded: () => void }) {
  const owing = packageStanding(pkg).owingCents;
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState((owing / 100).toFixed(2).replace(/\.00$/, ''));
  const [method, setMethod] = useState<'eft' | 'admin'>('eft');
  const [paidOn, setPaidOn] = useState(sastDate(new Date()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [id] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const amountCents = randToCents(amount);
    if (amountCents === undefined || amountCents < 1) {
      setErrors({ amountCents: paymentMessages.amountInvalid });
      return;
    }
    setErrors({});
    setError(null);
    setBusy(true);
    try {
      await packagesApi.recordPayment(pkg.id, { id, kind: 'payment', method, amountCents, paidOn, note: '' });
      onRecorded();
    } catch (failure) {
      if (failure instanceof ApiError) setErrors(failure.fields);
      setError(errorText(failure, paymentMessages.recordFailed));
    } finally {
      setBusy(false);
    }
  }

  if (!open)
    return (
      <button type="button" className="btn-secondary mt-3" onClick={() => setOpen(true)}>
        Record payment<span className="sr-only"> for {packageTitle(pkg)}</span>
      </button>
    );
  return (
    <form noValidate className="mt-3 grid gap-3 sm:grid-cols-3" onSubmit={(e) => void submit(e)}>
      <FormField
        label="Amount (R)"
        inputMode="decimal"
        value={amount}
        error={errors.amountCents}
        onChange={(e) => setAmount(e.target.value)}
      />
      <SelectField label="How it came" value={method} onChange={(e) => setMethod(e.target.value as 'eft' | 'admin')}>
        <option value="eft">By EFT</option>
        <option value="admin">By hand (cash or card)</option>
      </SelectField>
      <FormField
        label="Date paid"
        type="date"
        value={paidOn}
        max={sastDate(new Date())}
        error={errors.paidOn}
        onChange={(e) => setPaidOn(e.target.value)}
      />
      {error && (
        <Notice tone="error" className="sm:col-span-3">
          {error}
        </Notice>
      )}
      <div className="flex flex-wrap gap-3 sm:col-span-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? 'Recording…' : 'Record payment'}
        </button>
        <button type="button" className="btn-secondary" disabled={busy} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
