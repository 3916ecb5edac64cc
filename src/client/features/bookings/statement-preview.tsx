import { EyeOff, Undo2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatRand } from '../../../common/money.ts';
import { formatMonth } from '../../../common/packages.ts';
import { formatSastDate, formatSastDateTime } from '../../../common/sast.ts';
import { wholeReference } from '../../../common/statement-match.ts';
import { statementMessages, type StatementPreview, type StatementPreviewLine } from '../../../common/statements.ts';
import { FormField } from '../../components/form-field.tsx';

/** What the admin decided about a statement's lines: what `POST /api/bookings/statements/import` is sent. */
export interface StatementDecision {
  lines: { key: string; reference?: string }[];
  ignore: string[];
  unignore: string[];
}

/** A line as the admin leaves it: chosen to record, the reference typed by hand, ignored. */
type Choice = { chosen: boolean; reference: string; ignored: boolean };

/** Lines shown per group: a statement of thousands records them all, the page shows the first. */
const shownPerGroup = 100;

const lineWords: Record<StatementPreviewLine['match'], string> = {
  pays: 'pays',
  'part-pays': 'part-pays',
  'over-pays': 'pays more than is due on',
  'unknown-reference': 'names a reference no booking or package has',
  'no-reference': 'names no booking or package',
  'money-out': 'is money out',
  'already-recorded': 'was recorded before',
  ignored: 'was ignored',
};

/** A line that records money for a booking or a package, as the statement stands. */
const pays = (line: StatementPreviewLine) => Boolean(line.booking ?? line.package);

/** A line that waits for the admin's hand, or did before it was ignored: the lines that can be ignored. */
const waitsOrIgnored = (line: StatementPreviewLine) =>
  line.match === 'no-reference' || line.match === 'unknown-reference' || line.match === 'ignored';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * A statement's preview (issue 37 §2, §3): what each line would record, grouped. Lines that pay a booking or a
 * monthly package are chosen (an over-payment is left to the admin); a waiting line is given a reference by hand
 * (a booking's or a package's), or ignored (a transfer of their own, a line not for a session); a line ignored
 * before shows in the ignored group, where its ignore can be taken back. Nothing is sent until the one button,
 * which says everything it will do.
 */
export function StatementPreviewPanel({
  result,
  busy,
  onSubmit,
  onCancel,
}: {
  result: StatementPreview;
  busy: boolean;
  onSubmit: (decision: StatementDecision) => void;
  onCancel: () => void;
}) {
  const idBase = useId();
  const [choices, setChoices] = useState<ReadonlyMap<string, Choice>>(
    () =>
      new Map(
        result.lines.map((line) => [
          line.key,
          {
            chosen: line.match === 'pays' || line.match === 'part-pays',
            reference: '',
            ignored: line.match === 'ignored',
          },
        ]),
      ),
  );
  // The line whose Ignore or Undo was pressed: it moves to the other group, and the focus goes with it.
  const moved = useRef<string>(undefined);
  const toggleId = (line: StatementPreviewLine) => `${idBase}-ignore-${line.line}`;
  useEffect(() => {
    if (!moved.current) return;
    document.getElementById(moved.current)?.focus();
    moved.current = undefined;
  });

  const choice = (line: StatementPreviewLine) => choices.get(line.key)!;
  const setChoice = (key: string, change: Partial<Choice>) =>
    setChoices((all) => new Map(all).set(key, { ...all.get(key)!, ...change }));
  const setIgnored = (line: StatementPreviewLine, ignored: boolean) => {
    setChoice(line.key, { ignored });
    moved.current = toggleId(line);
  };

  const { lines } = result;
  const toBookings = lines.filter((l) => l.booking);
  const toPackages = lines.filter((l) => l.package);
  const waiting = lines.filter((l) => waitsOrIgnored(l) && !choice(l).ignored);
  const ignored = lines.filter((l) => waitsOrIgnored(l) && choice(l).ignored);
  const moneyOut = lines.filter((l) => l.match === 'money-out').length;
  const before = lines.filter((l) => l.match === 'already-recorded').length;

  const chosenLines = lines.filter((line) => {
    const { chosen, reference, ignored } = choice(line);
    return chosen && !ignored && (pays(line) || wholeReference.test(reference.trim()));
  });
  const chosenCents = chosenLines.reduce((sum, line) => sum + line.amountCents, 0);
  const decision: StatementDecision = {
    lines: chosenLines.map((line) => {
      const reference = pays(line) ? undefined : choice(line).reference.trim().toUpperCase();
      return reference ? { key: line.key, reference } : { key: line.key };
    }),
    ignore: ignored.filter((l) => l.match !== 'ignored').map((l) => l.key),
    unignore: waiting.filter((l) => l.match === 'ignored').map((l) => l.key),
  };
  const { ignore, unignore } = decision;
  const doing = [
    ...(chosenLines.length > 0 || ignore.length + unignore.length === 0
      ? [`record ${plural(chosenLines.length, 'payment', 'payments')} (${formatRand(chosenCents)})`]
      : []),
    ...(ignore.length > 0 ? [`ignore ${plural(ignore.length, 'line', 'lines')}`] : []),
    ...(unignore.length > 0 ? [`stop ignoring ${plural(unignore.length, 'line', 'lines')}`] : []),
  ].join(', ');

  const chooseLine = (line: StatementPreviewLine) => (
    <label className="flex items-start gap-3">
      <input
        type="checkbox"
        className="mt-1 h-5 w-5 shrink-0"
        checked={choice(line).chosen}
        onChange={(e) => setChoice(line.key, { chosen: e.target.checked })}
      />
      <LineText line={line} />
    </label>
  );

  const ignoreButton = (line: StatementPreviewLine, label: string, icon: ReactNode, name: string, to: boolean) => (
    <button
      id={toggleId(line)}
      type="button"
      className="btn-secondary shrink-0"
      aria-label={`${name} line ${line.line}`}
      onClick={() => setIgnored(line, to)}
    >
      {icon}
      {label}
    </button>
  );

  return (
    <div className="mt-6 flex flex-col gap-4" aria-label="Statement preview" role="region">
      <p className="font-medium" role="status">
        {lines.length} lines read: {toBookings.length} pay a booking,{' '}
        {toPackages.length > 0 && `${toPackages.length} pay a package, `}
        {waiting.length} to match by hand, {ignored.length} ignored, {moneyOut} money out, {before} recorded before.
      </p>
      <LineGroup title="Pay a booking" lines={toBookings}>
        {chooseLine}
      </LineGroup>
      <LineGroup title="Pay a monthly package" lines={toPackages}>
        {chooseLine}
      </LineGroup>
      <LineGroup title="To match by hand" lines={waiting}>
        {(line) => {
          const reference = choice(line).reference.trim();
          return (
            <div className="flex flex-col gap-2">
              <LineText line={line} />
              <div className="flex flex-wrap items-end gap-x-3 gap-y-2">
                <FormField
                  label={`Reference for line ${line.line}`}
                  placeholder="TB-ABC234"
                  className="min-w-48 flex-1 sm:w-80 sm:flex-none"
                  value={choice(line).reference}
                  onChange={(e) =>
                    setChoice(line.key, { reference: e.target.value, chosen: e.target.value.trim() !== '' })
                  }
                  error={reference && !wholeReference.test(reference) ? statementMessages.referenceInvalid : undefined}
                />
                {ignoreButton(line, 'Ignore', <EyeOff aria-hidden size={18} />, 'Ignore', true)}
              </div>
            </div>
          );
        }}
      </LineGroup>
      <LineGroup
        title="Ignored"
        hint="Not recorded, and shown here when this statement is imported again."
        lines={ignored}
      >
        {(line) => (
          <div className="flex flex-col items-start gap-2 sm:flex-row sm:items-center sm:justify-between">
            <LineText line={line} />
            {line.match === 'ignored'
              ? ignoreButton(line, 'Take back ignore', <Undo2 aria-hidden size={18} />, 'Take back ignore of', false)
              : ignoreButton(line, 'Undo', <Undo2 aria-hidden size={18} />, 'Undo ignoring', false)}
          </div>
        )}
      </LineGroup>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className="btn-primary"
          disabled={busy || chosenLines.length + ignore.length + unignore.length === 0}
          onClick={() => onSubmit(decision)}
        >
          {doing.charAt(0).toUpperCase() + doing.slice(1)}
        </button>
        <button type="button" className="btn-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function LineGroup({
  title,
  hint,
  lines,
  children,
}: {
  title: string;
  hint?: string;
  lines: StatementPreviewLine[];
  children: (line: StatementPreviewLine) => ReactNode;
}) {
  if (lines.length === 0) return null;
  return (
    <div>
      <h4 className="font-semibold">{title}</h4>
      {hint && <p className="text-sm text-slate-600 dark:text-slate-400">{hint}</p>}
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
    ? `${lineWords[line.match]} ${line.booking.moduleName} for ${line.booking.studentName}`
    : line.package
      ? `${lineWords[line.match]} the package “${line.package.name}”, ${formatMonth(line.package.month)}, for ${line.package.studentName}`
      : line.ignored
        ? `${lineWords[line.match]} by ${line.ignored.by} (${formatSastDateTime(line.ignored.at)})`
        : lineWords[line.match];
  return (
    <span className="min-w-0 break-words">
      <span className="font-medium">
        Line {line.line}, {formatSastDate(line.date)}: {formatRand(line.amountCents)}
      </span>{' '}
      <span className="text-slate-600 dark:text-slate-400">“{line.description}”</span> {what}
      {/* A reference is read as one word: a phone does not break it at its hyphens. */}
      {pays(line) && (
        <>
          {' '}
          (<span className="whitespace-nowrap">{line.reference}</span>)
        </>
      )}
      {line.shortCents ? `, ${formatRand(line.shortCents)} short` : ''}
      {line.overCents ? `, ${formatRand(line.overCents)} over` : ''}.
    </span>
  );
}
