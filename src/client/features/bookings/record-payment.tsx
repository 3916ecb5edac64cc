import { Banknote } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { Booking } from '../../../common/bookings.ts';
import { formatRand, randToCents } from '../../../common/money.ts';
import {
  bookingStanding,
  manualPaymentMethods,
  paymentMessages,
  recordPaymentInputSchema,
  type PaymentKind,
} from '../../../common/payments.ts';
import { sastDate } from '../../../common/sast.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import type { useStaffActions } from './use-bookings.ts';

const kindChoices: { kind: PaymentKind; label: string }[] = [
  { kind: 'payment', label: 'Payment received' },
  { kind: 'refund', label: 'Refund given' },
  { kind: 'waiver', label: 'Waive (no money)' },
];

const methodLabels: Record<(typeof manualPaymentMethods)[number], string> = {
  eft: 'EFT',
  admin: 'By hand (cash or card)',
};

type Fields = 'amountCents' | 'paidOn' | 'method' | 'note';

/** The figures the form shows: what is due, what was received and what is owing. */
const moneyOf = (booking: Booking) => {
  const { dueCents, paidCents, owingCents } = bookingStanding(booking);
  return `${dueCents} ${paidCents} ${owingCents}`;
};

/**
 * The admin records money against a booking (issue 37 §1): a payment received, a refund given or an amount
 * waived, with the date and how it came. The amount starts at what is owing. Checked here with the server's own
 * schema and messages; what was typed stays after a refusal. Needs the connection, as every staff change does.
 */
export function RecordPayment({
  booking,
  actions,
  nameId,
}: {
  booking: Booking;
  actions: ReturnType<typeof useStaffActions>;
  nameId: string;
}) {
  const id = useId();
  const standing = bookingStanding(booking);
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<PaymentKind>('payment');
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<(typeof manualPaymentMethods)[number]>('eft');
  const [paidOn, setPaidOn] = useState(() => sastDate(new Date()));
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [sending, setSending] = useState(false);
  // One id per form opened: a retry after a lost answer records nothing twice.
  const [paymentId, setPaymentId] = useState(() => crypto.randomUUID());
  // The money as the admin read it. A newer copy of the booking (another change, or money recorded elsewhere)
  // keeps what was typed; only a change to the money is said before sending, as the figures typed may be stale.
  const [moneyRead, setMoneyRead] = useState('');
  const [moneyChanged, setMoneyChanged] = useState(false);

  function start() {
    setKind('payment');
    setAmount(standing.owingCents > 0 ? (standing.owingCents / 100).toFixed(2) : '');
    setPaidOn(sastDate(new Date()));
    setNote('');
    setErrors({});
    setPaymentId(crypto.randomUUID());
    setMoneyRead(moneyOf(booking));
    setMoneyChanged(false);
    setOpen(true);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = recordPaymentInputSchema.safeParse({
      id: paymentId,
      kind,
      method: kind === 'waiver' ? undefined : method,
      amountCents: randToCents(amount) ?? Number.NaN,
      paidOn,
      note,
      version: booking.version,
    });
    if (!parsed.success) {
      const found: Partial<Record<Fields, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Fields;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    if (moneyOf(booking) !== moneyRead) {
      setMoneyRead(moneyOf(booking));
      setMoneyChanged(true);
      return;
    }
    setMoneyChanged(false);
    setSending(true);
    const done = await actions.recordPayment(booking, parsed.data);
    setSending(false);
    if (done) setOpen(false);
  }

  if (!open)
    return (
      <button type="button" className="btn-secondary mt-4" aria-describedby={nameId} onClick={start}>
        <Banknote aria-hidden size={18} />
        Record payment
      </button>
    );
  return (
    <form
      noValidate
      aria-labelledby={`${id}-title`}
      className="mt-4 flex flex-col gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      onSubmit={(e) => void submit(e)}
    >
      <h4 id={`${id}-title`} className="font-semibold">
        Record money for {booking.paymentReference}
      </h4>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Due {formatRand(standing.dueCents)}
        {standing.due.what === 'late-fee' ? ` (the late fee, reference ${standing.due.reference})` : ''}; received{' '}
        {formatRand(Math.max(0, standing.paidCents))}; owing {formatRand(standing.owingCents)}.
      </p>
      <fieldset>
        <legend className="mb-1 text-sm font-medium">What happened</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {kindChoices.map((choice) => (
            <label key={choice.kind} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name={`${id}-kind`}
                value={choice.kind}
                checked={kind === choice.kind}
                onChange={() => setKind(choice.kind)}
              />
              {choice.label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FormField
          label="Amount (R)"
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={errors.amountCents}
        />
        <FormField
          label={kind === 'waiver' ? 'Date' : 'Date the money moved'}
          name="paidOn"
          type="date"
          max={sastDate(new Date())}
          value={paidOn}
          onChange={(e) => setPaidOn(e.target.value)}
          error={errors.paidOn}
        />
      </div>
      {kind !== 'waiver' && (
        <SelectField
          label="How"
          name="method"
          value={method}
          onChange={(e) => setMethod(e.target.value as typeof method)}
          error={errors.method}
        >
          {manualPaymentMethods.map((m) => (
            <option key={m} value={m}>
              {methodLabels[m]}
            </option>
          ))}
        </SelectField>
      )}
      <FormField
        label={kind === 'payment' ? 'Note (optional)' : 'Reason'}
        name="note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
      />
      {moneyChanged && <Notice tone="error">{paymentMessages.moneyChanged}</Notice>}
      <div className="flex flex-wrap gap-3">
        <button type="submit" className="btn-primary" disabled={sending}>
          {kind === 'waiver' ? 'Waive' : kind === 'refund' ? 'Record refund' : 'Record payment'}
        </button>
        <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
