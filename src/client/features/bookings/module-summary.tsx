import { Link } from 'react-router-dom';
import { bookingMessages } from '../../../common/bookings.ts';
import { formatRand } from '../../../common/money.ts';
import type { ModuleInfo } from './booking-rules.ts';

const muted = 'text-slate-700 dark:text-slate-300';

/** Spec §2: the module's name, description and common topics; a custom subject says so. */
export function ModuleSummary({ name, info }: { name: string; info: ModuleInfo | undefined }) {
  return (
    <section aria-labelledby="module-title" className="card lg:sticky lg:top-24">
      <p className={`text-sm ${muted}`}>Your module</p>
      <h2 id="module-title" className="mt-1 text-xl font-semibold">
        {name}
      </h2>
      {info && (
        <>
          <p className="mt-1 text-sm font-semibold tracking-wide text-brand-800 uppercase dark:text-brand-200">
            {info.category}
          </p>
          <p className="mt-3 font-semibold">{formatRand(info.rateCents)}/hour</p>
          {info.custom ? (
            <p className={`mt-3 ${muted}`}>{bookingMessages.customSubject}</p>
          ) : (
            info.description && <p className={`mt-3 ${muted}`}>{info.description}</p>
          )}
          {info.topics.length > 0 && (
            <>
              <h3 className="mt-4 font-semibold">Common topics</h3>
              <ul className={`mt-1 list-disc space-y-1 pl-6 ${muted}`}>
                {info.topics.map((topic) => (
                  <li key={topic}>{topic}</li>
                ))}
              </ul>
            </>
          )}
          {info.slug && (
            <Link to={`/modules/${info.slug}`} className="link mt-2 inline-flex min-h-11 items-center">
              Module details
            </Link>
          )}
        </>
      )}
    </section>
  );
}
