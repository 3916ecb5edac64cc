import { FileUp } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatRand } from '../../../common/money.ts';
import {
  bankMappingSchema,
  statementMaxBytes,
  statementMessages,
  type BankMapping,
  type StatementPreview,
} from '../../../common/statements.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { ApiError, isOffline, isSessionEnded } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { bookingsApi } from './bookings-api.ts';
import { headerColumns } from './statement-columns.ts';
import { StatementPreviewPanel, type StatementDecision } from './statement-preview.tsx';

type MappingField = 'bank' | 'date' | 'amount' | 'in' | 'out' | 'description';

const offlineText = 'You are offline. Importing a statement needs the connection.';
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A bank statement imported (issue 37 §2): the admin names the bank and chooses the CSV file; the bank's columns
 * are offered from the file's header, and filled in from last time for a bank seen before. The preview says what
 * each line would record (statement-preview.tsx): lines that pay a booking or a monthly package are chosen, an
 * over-payment is left to the admin, and a line with no reference can be given one by hand, or ignored. Nothing
 * is recorded until "Record". A statement that cannot be read is refused whole, naming the line, and the form
 * keeps what was chosen.
 */
export function StatementImport({ onRecorded }: { onRecorded: () => void }) {
  const headingId = useId();
  const [mappings, setMappings] = useState<BankMapping[]>([]);
  const [bank, setBank] = useState('');
  const [file, setFile] = useState<{ name: string; text: string }>();
  const [date, setDate] = useState('');
  const [amountKind, setAmountKind] = useState<'signed' | 'in-out'>('signed');
  const [amount, setAmount] = useState('');
  const [moneyIn, setMoneyIn] = useState('');
  const [moneyOut, setMoneyOut] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Partial<Record<MappingField | 'file', string>>>({});
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<{ mapping: BankMapping; csv: string; result: StatementPreview }>();
  // Each preview starts from what it read: the panel's choices are made afresh.
  const [previews, setPreviews] = useState(0);

  useEffect(() => {
    if (isOffline()) return;
    bookingsApi.bankMappings().then(setMappings, () => undefined);
  }, []);

  const columns = file ? headerColumns(file.text) : [];

  /** A bank seen before: its columns as they were mapped then. */
  function chooseBank(name: string) {
    setBank(name);
    const known = mappings.find((m) => m.bank.toLowerCase() === name.trim().toLowerCase());
    if (!known) return;
    setDate(known.date);
    setAmountKind(known.amount.kind);
    if (known.amount.kind === 'signed') setAmount(known.amount.column);
    else {
      setMoneyIn(known.amount.in);
      setMoneyOut(known.amount.out);
    }
    setDescription(known.description.join(', '));
  }

  async function chooseFile(chosen: File | undefined) {
    setPreview(undefined);
    setRefusal(undefined);
    if (!chosen) return setFile(undefined);
    if (chosen.size > statementMaxBytes) {
      setFile(undefined);
      return setErrors({ ...errors, file: statementMessages.tooLarge });
    }
    setErrors({ ...errors, file: undefined });
    setFile({ name: chosen.name, text: await chosen.text() });
  }

  function mappingOf(): BankMapping | undefined {
    const parsed = bankMappingSchema.safeParse({
      bank,
      date,
      amount:
        amountKind === 'signed' ? { kind: 'signed', column: amount } : { kind: 'in-out', in: moneyIn, out: moneyOut },
      description: description
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    });
    const found: Partial<Record<MappingField | 'file', string>> = file
      ? {}
      : { file: 'Choose the statement’s CSV file.' };
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const [first, second] = issue.path;
        const field = (first === 'amount' ? (amountKind === 'signed' ? 'amount' : second) : first) as MappingField;
        found[field] ??= field === 'description' ? 'Name the description column.' : issue.message;
      }
    setErrors(found);
    return parsed.success && file ? parsed.data : undefined;
  }

  async function send<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (isOffline()) {
      toast.error(offlineText);
      return undefined;
    }
    setBusy(true);
    setRefusal(undefined);
    try {
      return await work();
    } catch (error) {
      if (isSessionEnded(error)) return undefined;
      const text =
        error instanceof ApiError && error.status < 500
          ? error.message
          : errorText(error, 'Failed to read the statement. Please try again.', { offline: offlineText });
      setRefusal(text);
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function previewIt(event: FormEvent) {
    event.preventDefault();
    const mapping = mappingOf();
    if (!mapping || !file) return;
    const result = await send(() => bookingsApi.previewStatement(mapping, file.text));
    if (!result) return;
    setPreview({ mapping, csv: file.text, result });
    setPreviews((n) => n + 1);
  }

  async function record(decision: StatementDecision) {
    if (!preview) return;
    const done = await send(() => bookingsApi.importStatement(preview.mapping, preview.csv, decision));
    if (!done) return;
    toast.success(
      [
        decision.lines.length > 0 &&
          `Recorded ${count(done.recorded, 'payment', 'payments')} (${formatRand(done.amountCents)}).`,
        done.alreadyRecorded > 0 && `${done.alreadyRecorded} had been recorded before.`,
        done.ignored > 0 && `Ignored ${count(done.ignored, 'line', 'lines')}.`,
        done.unignored > 0 && `${count(done.unignored, 'line', 'lines')} no longer ignored.`,
      ]
        .filter(Boolean)
        .join(' ') || 'Nothing changed: those lines were ignored already.',
    );
    setPreview(undefined);
    setMappings((known) => [
      ...known.filter((m) => m.bank.toLowerCase() !== preview.mapping.bank.toLowerCase()),
      preview.mapping,
    ]);
    onRecorded();
  }

  const columnField = (label: string, field: MappingField, value: string, onChange: (v: string) => void) =>
    columns.length > 0 ? (
      <SelectField label={label} value={value} onChange={(e) => onChange(e.target.value)} error={errors[field]}>
        <option value="">Choose a column</option>
        {[...new Set([...columns, ...(value ? [value] : [])])].map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </SelectField>
    ) : (
      <FormField label={label} value={value} onChange={(e) => onChange(e.target.value)} error={errors[field]} />
    );

  return (
    <section aria-labelledby={headingId} className="card mt-6">
      <h3 id={headingId} className="text-lg font-semibold">
        Import a bank statement
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Export the statement from your bank as CSV. Lines that quote a booking’s or a monthly package’s reference are
        matched to it; nothing is recorded until you press Record.
      </p>
      <form
        noValidate
        aria-label="Import a bank statement"
        className="mt-4 flex flex-col gap-3"
        onSubmit={(e) => void previewIt(e)}
      >
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <FormField
            label="Bank"
            list={`${headingId}-banks`}
            value={bank}
            onChange={(e) => chooseBank(e.target.value)}
            error={errors.bank}
            hint={mappings.length > 0 ? 'A bank imported before fills in its columns.' : undefined}
          />
          <datalist id={`${headingId}-banks`}>
            {mappings.map((m) => (
              <option key={m.bank} value={m.bank} />
            ))}
          </datalist>
          <FormField
            label="Statement (CSV)"
            type="file"
            accept=".csv,text/csv,text/plain"
            onChange={(e) => void chooseFile(e.target.files?.[0])}
            error={errors.file}
          />
        </div>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {columnField('Date column', 'date', date, setDate)}
          {columnField('Description column', 'description', description, setDescription)}
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium">The amount</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {(
              [
                ['signed', 'One column (money out below zero)'],
                ['in-out', 'Money in and money out apart'],
              ] as const
            ).map(([kind, label]) => (
              <label key={kind} className="flex min-h-11 items-center gap-2">
                <input
                  type="radio"
                  name={`${headingId}-amount`}
                  checked={amountKind === kind}
                  onChange={() => setAmountKind(kind)}
                />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {amountKind === 'signed' ? (
            columnField('Amount column', 'amount', amount, setAmount)
          ) : (
            <>
              {columnField('Money in column', 'in', moneyIn, setMoneyIn)}
              {columnField('Money out column', 'out', moneyOut, setMoneyOut)}
            </>
          )}
        </div>
        {refusal && <Notice tone="error">{refusal}</Notice>}
        <div>
          <button type="submit" className="btn-secondary" disabled={busy}>
            <FileUp aria-hidden size={18} />
            {busy && !preview ? 'Reading…' : 'Preview'}
          </button>
        </div>
      </form>

      {preview && (
        <StatementPreviewPanel
          key={previews}
          result={preview.result}
          busy={busy}
          onSubmit={(decision) => void record(decision)}
          onCancel={() => setPreview(undefined)}
        />
      )}
    </section>
  );
}
