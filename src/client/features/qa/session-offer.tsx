import { CalendarPlus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Question } from '../../../common/qa.ts';
import type { Me } from '../../../common/session.ts';
import { offerBookingPath, sessionMessages, type SessionOffer } from '../../../common/session-notes.ts';
import { isSessionEnded, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';

const offers = client.api.questions[':id'].offers;

/**
 * From a question to a session (issue 39 §4). A tutor or the admin offers a session on someone's question (once:
 * after that it says so; a tutor only on a question about a module of their subjects, or about none); the asker
 * sees who offered, each with the booking page of the question and its module one tap away (the notice she gets
 * opens the same), until she has booked from it. Needs the connection: offline, or before the offers are read,
 * nothing shows. Staff's part is a button or a line, for the row above the question (beside Follow, where it moves
 * nothing as it comes); the asker's, the list of offers.
 */
export function SessionOfferPanel({ question, me }: { question: Pick<Question, 'id' | 'author' | 'module'>; me: Me }) {
  const asker = question.author.id === me.id;
  const staff = (me.role === 'tutor' || me.role === 'admin') && !asker;
  const [made, setMade] = useState<SessionOffer[]>();
  // Whether I may offer (staff: a tutor in the question's subject), and whether the asker booked from it.
  const [standing, setStanding] = useState({ mayOffer: false, booked: false });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!asker && !staff) return;
    let current = true;
    void offers
      .$get({ param: { id: question.id } })
      .then(readJson)
      .then(
        (answer) => {
          if (!current) return;
          setMade(answer.offers);
          setStanding({ mayOffer: answer.mayOffer, booked: answer.booked });
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [asker, staff, question.id]);

  if (!made || (asker && made.length === 0)) return null;

  async function offer() {
    setBusy(true);
    try {
      const made = await readJson(await offers.$post({ param: { id: question.id } }));
      setMade([made]);
      toast.success('Your offer is sent: the student can book the session from her notifications.');
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(errorText(error, 'The offer was not sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  if (staff) {
    if (made.length > 0) return <p className="text-sm text-slate-700 dark:text-slate-300">{sessionMessages.offered}</p>;
    // A tutor of another subject: its tutors run the booking, and offer it.
    if (!standing.mayOffer) return null;
    return (
      <button type="button" className="btn-secondary" disabled={busy} onClick={() => void offer()}>
        <CalendarPlus aria-hidden size={18} />
        {sessionMessages.offer}
      </button>
    );
  }
  // The booking page with the question linked and its module chosen, as the notice opens it.
  const bookingPath = offerBookingPath(question.id, question.module?.name);
  return (
    <>
      <ul className="mb-3 flex flex-col gap-2">
        {made.map((o) => (
          <li
            key={o.tutor.id}
            className="flex flex-wrap items-center gap-3 rounded-lg border border-brand-200 bg-brand-50 p-3 dark:border-brand-800 dark:bg-brand-900/40"
          >
            <span>{sessionMessages.offeredBy(o.tutor.name)}</span>
            {!standing.booked && (
              <Link to={bookingPath} className="btn-primary ml-auto">
                {sessionMessages.bookOffer}
              </Link>
            )}
          </li>
        ))}
      </ul>
      {standing.booked && (
        <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
          {sessionMessages.booked}{' '}
          {me.role === 'student' && (
            <Link to="/student-dashboard" className="link">
              {sessionMessages.seeBooking}
            </Link>
          )}
        </p>
      )}
    </>
  );
}
