import { UsersRound } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { groupMessages, type GroupSession } from '../../../common/groups.ts';
import { formatRand } from '../../../common/money.ts';
import { formatSastDate } from '../../../common/sast.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { Notice } from '../../components/notice.tsx';
import { errorText } from '../../lib/error-text.ts';
import { groupsApi } from './groups-api.ts';
import { sessionEnd } from './tutor-week.ts';
import { useSession } from '../../lib/session.tsx';
import { storeBookings, useMyBookings } from './use-bookings.ts';
import { useGroupSessions, type GroupSessionsState } from './use-group-sessions.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/** "Thu, 03 Dec 2026, 14:00–16:00 SAST": a group's date and times. */
export const groupWhen = (group: Pick<GroupSession, 'date' | 'start' | 'hours'>) =>
  `${formatSastDate(group.date)}, ${group.start}–${sessionEnd(group.start, group.hours)} SAST`;

/** While the groups are read: that they are, or that they could not be, with a way to try again. */
export function GroupsLoading({ state: { groups, failed, online, reload } }: { state: GroupSessionsState }) {
  return (
    <>
      {online && failed && (
        <Notice tone="error" className="mt-4">
          Could not load the group sessions.{' '}
          <button type="button" className="link" onClick={reload}>
            Try again
          </button>
        </Notice>
      )}
      {online && !groups && !failed && (
        <p role="status" className={`mt-4 ${muted}`}>
          Loading group sessions…
        </p>
      )}
    </>
  );
}

type Outcome = { tone: 'info'; reference: string } | { tone: 'error'; text: string };

/**
 * The module's open group sessions (issue 36, "group sessions offered"), on the module page and the booking page:
 * each with its time, tutor, price per student and seats left, and "Take a seat", which books a confirmed seat at
 * once. Read from the server while online; taking a seat needs the connection (seats are counted there).
 */
export function GroupSessionsOffer({ moduleName }: { moduleName: string }) {
  const headingId = useId();
  const confirm = useConfirm();
  const { session } = useSession();
  const mine = useMyBookings(session.me?.id ?? '');
  const seats = (mine.data ?? []).flatMap((b) => (b.group && b.status !== 'Cancelled' ? [b.group.id] : []));
  const seatedIn = new Set(seats);
  const { groups, failed, online, reload } = useGroupSessions({ module: moduleName }, seats.sort().join());
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  async function take(group: GroupSession) {
    const yes = await confirm({
      title: 'Take a seat?',
      message: groupMessages.takeSeatConfirm(group.priceCents),
      confirmLabel: 'Take a seat',
      cancelLabel: 'Not now',
    });
    if (!yes) return;
    setBusy(group.id);
    setOutcome(null);
    try {
      const booking = await groupsApi.takeSeat(group.id, { id: crypto.randomUUID() });
      await storeBookings([booking]);
      setOutcome({ tone: 'info', reference: booking.paymentReference });
    } catch (error) {
      setOutcome({ tone: 'error', text: errorText(error, 'Failed to take a seat. Please try again.') });
    } finally {
      setBusy(null);
      reload();
    }
  }

  // Nothing to offer and nothing to say: a module without groups shows no empty section on a phone, and none
  // appears while they are read (most modules have none: a section shown and taken away would shift the page).
  if (online && !failed && (groups === undefined || groups.length === 0) && !outcome) return null;
  return (
    <section aria-labelledby={headingId} className="card mt-6 sm:p-8">
      <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold">
        <UsersRound aria-hidden size={20} />
        Group sessions
      </h2>
      <p className={`mt-1 ${muted}`}>Learn with a few other students, at a price per student.</p>
      {outcome?.tone === 'info' && (
        <Notice tone="info" className="mt-4">
          <span>
            {groupMessages.seatTaken} Your payment reference is <strong>{outcome.reference}</strong>.{' '}
            <Link to="/student-dashboard" className="link">
              See your bookings
            </Link>
          </span>
        </Notice>
      )}
      {outcome?.tone === 'error' && (
        <Notice tone="error" className="mt-4">
          {outcome.text}
        </Notice>
      )}
      {!online && (
        <Notice tone="offline" className="mt-4">
          {groupMessages.offline}
        </Notice>
      )}
      <GroupsLoading state={{ groups, failed, online, reload }} />
      {groups && groups.length === 0 && <p className={`mt-4 ${muted}`}>{groupMessages.none}</p>}
      {groups && groups.length > 0 && (
        <ul className="mt-4 space-y-3">
          {groups.map((group) => {
            const left = group.seats - group.taken;
            const seated = seatedIn.has(group.id);
            return (
              <li
                key={group.id}
                className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-slate-700"
              >
                <div>
                  <p className="font-semibold">{groupWhen(group)}</p>
                  <p className={muted}>
                    With {group.tutorName} · {formatRand(group.priceCents)} per student ·{' '}
                    {left > 0 ? groupMessages.seatsLeft(left) : 'Full'}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn-primary w-full sm:w-auto"
                  disabled={!online || left <= 0 || seated || busy !== null}
                  aria-label={`${seated ? 'You have a seat' : 'Take a seat'}: ${groupWhen(group)}`}
                  onClick={() => void take(group)}
                >
                  {busy === group.id
                    ? 'Taking a seat…'
                    : seated
                      ? 'You have a seat'
                      : left > 0
                        ? 'Take a seat'
                        : 'Full'}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
