import { ArrowLeft, CalendarClock } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { brand } from '../../../common/brand.ts';
import { ContactLinks } from '../../components/contact-links.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { moduleFromState, storeChosenModule, storedChosenModule } from './chosen-module.ts';

/**
 * /booking until online booking is built: names the module chosen with Book Now (or the last one chosen on
 * this device), says plainly that online booking is not open yet, and offers WhatsApp and e-mail meanwhile.
 */
export function BookingSoonPage() {
  const { state } = useLocation();
  const fromState = useMemo(() => moduleFromState(state), [state]);
  const module = fromState ?? storedChosenModule();

  useEffect(() => {
    if (fromState) storeChosenModule(fromState);
  }, [fromState]);

  const message = module
    ? `Hi ${brand.name}, I would like to book a tutoring session for ${module.name}.`
    : `Hi ${brand.name}, I would like to book a tutoring session.`;
  const subject = module ? `Booking: ${module.name}` : 'Booking a tutoring session';

  return (
    <div className="container-page max-w-3xl py-10 sm:py-14">
      <PageMeta title="Book a session" description={`Book a tutoring session with ${brand.name} by WhatsApp or e-mail.`} />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Book a session</h1>

      <section aria-labelledby="module-title" className="card mt-6">
        {module ? (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">Your module</p>
            <h2 id="module-title" className="mt-1 text-xl font-semibold">
              {module.name}
            </h2>
            {module.slug && (
              <Link to={`/modules/${module.slug}`} className="link mt-1 inline-flex min-h-11 items-center">
                Module details
              </Link>
            )}
          </>
        ) : (
          <>
            <h2 id="module-title" className="text-xl font-semibold">
              No module chosen yet
            </h2>
            <p className="mt-1 text-slate-700 dark:text-slate-300">Choose one on Courses with Book Now, or tell us what you need help with.</p>
          </>
        )}
      </section>

      <section aria-labelledby="soon-title" className="mt-8">
        <h2 id="soon-title" className="flex items-center gap-2 text-xl font-semibold">
          <CalendarClock aria-hidden size={22} className="shrink-0 text-brand-700 dark:text-brand-300" />
          Online booking opens soon
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          You cannot book online yet. Until then, book by WhatsApp or e-mail: send us the module, three times that suit you, how
          many hours you need and the concepts you want help with, and a tutor will confirm a time.
        </p>
        <ContactLinks className="mt-5" message={message} subject={subject} />
      </section>

      <p className="mt-8">
        <Link to="/offers" className="link inline-flex min-h-11 items-center gap-1">
          <ArrowLeft aria-hidden size={18} />
          Back to Courses
        </Link>
      </p>
    </div>
  );
}
