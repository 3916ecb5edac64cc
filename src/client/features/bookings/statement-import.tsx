import { FileUp } from 'lucide-react';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { formatRand } from '../../../common/money.ts';
import { formatSastDate } from '../../../common/sast.ts';
import {
  bankMappingSchema,
  statementMaxBytes,
  statementMessages,
  type BankMapping,
  type StatementPreview,
  type StatementPreviewLine,
} from '../../../common/statements.ts';
import { FormField, SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { ApiError, isOffline, isSessionEnded } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { bookingsApi } from './bookings-api.ts';
import { wholeReference } from '../../../common/statement-match.ts';
import { headerColumns } from './statement-columns.ts';

type Choice = { chosen: boolean; reference: string };
type MappingField = 'bank' | 'date' | 'amount' | 'in' | 'out' | 'description';

/** Lines shown per group: a statement of thousands records them all, the page shows the first. */
const shownPerGroup = 100;
const offlineText = 'You are offline. Importing a statement needs the connection.';

const lineWords: Record<StatementPreviewLine['match'], string> = {
  pays: 'pays',
  'part-pays': 'part-pays',
  'over-pays': 'pays more than is due on',
  'unknown-reference': 'names a reference no booking has',
  'no-reference': 'names no booking',
  'money-out': 'is money out',
  'already-recorded': 'was recorded before',
  ignored: 'was ignored',
};

/**
 * A bank statement imported (issue 37 §2): the admin names the bank and chooses the CSV file; the bank's columns
 * are offered from the file's header, and filled in from last time for a bank seen before. The preview says what
 * each line would record; lines that pay a booking are chosen, an over-payment is left to the admin, and a line
 * with no reference can be given one by hand. Nothing is recorded until "Record". A statement that cannot be read
 * is refused whole, naming the line, and the form keeps what was chosen.
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
  const [choices, setChoices] = useState<ReadonlyMap<string, Choice>>(new Map());

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
    setChoices(
      new Map(
        result.lines.map((line) => [
          line.key,
          { chosen: line.match === 'pays' || line.match === 'part-pays', reference: '' },
        ]),
      ),
    );
  }

  const chosenLines = preview
    ? preview.result.lines.filter((line) => {
        const choice = choices.get(line.key);
        return choice?.chosen && (line.booking || wholeReference.test(choice.reference.trim()));
      })
    : [];
  const chosenCents = chosenLines.reduce((sum, line) => sum + line.amountCents, 0);

  async function record() {
    if (!preview) return;
    const lines = chosenLines.map((line) => {
      const reference = line.booking ? undefined : choices.get(line.key)!.reference.trim().toUpperCase();
      return reference ? { key: line.key, reference } : { key: line.key };
    });
    const done = await send(() => bookingsApi.importStatement(preview.mapping, preview.csv, lines));
    if (!done) return;
    toast.success(
      `Recorded ${done.recorded} ${done.recorded === 1 ? 'payment' : 'payments'} (${formatRand(done.amountCents)}).` +
        (done.alreadyRecorded > 0 ? ` ${done.alreadyRecorded} had been recorded before.` : ''),
    );
    setPreview(undefined);
    setMappings((known) => [
      ...known.filter((m) => m.bank.toLowerCase() !== preview.mapping.bank.toLowerCase()),
      preview.mapping,
    ]);
    onRecorded();
  }

  const setChoice = (key: string, change: Partial<Choice>) =>
    setChoices((all) => new Map(all).set(key, { ...all.get(key)!, ...change }));

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

  const groups = preview && {
    toRecord: preview.result.lines.filter((l) => l.booking),
    waiting: preview.result.lines.filter((l) => l.match === 'no-reference' || l.match === 'unknown-reference'),
    moneyOut: preview.result.lines.filter((l) => l.match === 'money-out').length,
    before: preview.result.lines.filter((l) => l.match === 'already-recorded').length,
  };

  return (
    <section aria-labelledby={headingId} className="card mt-6">
      <h3 id={headingId} className="text-lg font-semibold">
        Import a bank statement
      </h3>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        Export the statement from your bank as CSV. Lines that quote a booking’s reference are matched to it; nothing is
        recorded until you press Record.
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

      {preview && groups && (
        <div className="mt-6 flex flex-col gap-4" aria-label="Statement preview" role="region">
          <p className="font-medium" role="status">
            {preview.result.lines.length} lines read: {groups.toRecord.length} pay a booking, {groups.waiting.length} to
            match by hand, {groups.moneyOut} money out, {groups.before} recorded before.
          </p>
          <LineGroup title="Pay a booking" lines={groups.toRecord}>
            {(line) => (
              <label className="flex items-start gap-3">
                <input
                  type="checkbox"
                  className="mt-1 h-5 w-5 shrink-0"
                  checked={choices.get(line.key)?.chosen ?? false}
                  onChange={(e) => setChoice(line.key, { chosen: e.target.checked })}
                />
                <LineText line={line} />
              </label>
            )}
          </LineGroup>
          <LineGroup title="To match by hand" lines={groups.waiting}>
            {(line) => (
              <div className="flex flex-col gap-2">
                <LineText line={line} />
                <FormField
                  label={`Booking reference for line ${line.line}`}
                  placeholder="TB-ABC234"
                  className="sm:max-w-xs"
                  value={choices.get(line.key)?.reference ?? ''}
                  onChange={(e) =>
                    setChoice(line.key, { reference: e.target.value, chosen: e.target.value.trim() !== '' })
                  }
                  error={
                    choices.get(line.key)?.reference.trim() &&
                    !wholeReference.test(choices.get(line.key)!.reference.trim())
                      ? statementMessages.referenceInvalid
                      : undefined
                  }
                />
              </div>
            )}
          </LineGroup>
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className="btn-primary"
              disabled={busy || chosenLines.length === 0}
              onClick={() => void record()}
            >
              Record {chosenLines.length} {chosenLines.length === 1 ? 'payment' : 'payments'} ({formatRand(chosenCents)}
              )
            </button>
            <button type="button" className="btn-secondary" onClick={() => setPreview(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function LineGroup({
  title,
  lines,
  children,
}: {
  title: string;
  lines: StatementPreviewLine[];
  children: (line: StatementPreviewLine) => ReactNode;
}) {
  if (lines.length === 0) return null;
  return (
    <div>
      <h4 className="font-semibold">{title}</h4>
      <ul className="mt-2 flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {lines.slice(0, shownPerGroup).map((line) => (
          <li key={line.key} className="p-3">
            {children(line)}
          </li>
        ))}
      </ul>
      {lines.length > shownPerGroup && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          And {lines.length - shownPerGroup} more, chosen as the ones above are.
        </p>
      )}
    </div>
  );
}

function LineText({ line }: { line: StatementPreviewLine }) {
  const what = line.booking
    ? `${lineWords[line.match]} ${line.booking.moduleName} for ${line.booking.studentName} (${line.reference})`
    : lineWords[line.match];
  return (
    <span className="min-w-0 break-words">
      <span className="font-medium">
        Line {line.line}, {formatSastDate(line.date)}: {formatRand(line.amountCents)}
      </span>{' '}
      <span className="text-slate-600 dark:text-slate-400">“{line.description}”</span> {what}
      {line.shortCents ? `, ${formatRand(line.shortCents)} short` : ''}
      {line.overCents ? `, ${formatRand(line.overCents)} over` : ''}.
    </span>
  );
}
