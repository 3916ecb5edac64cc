import { Link } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';
import { AvailabilityPage } from '../features/availability/availability-page.tsx';
import { useSession } from '../lib/session.tsx';

/**
 * /availability, for tutors and the admin (the server decides all the same: a student's calls are refused). The
 * role is checked here, not by a guard for two roles in the router: the router is in the first load of `/`, whose
 * JavaScript budget had no room for that guard.
 */
export function AvailabilityRoute() {
  const { session } = useSession();
  return session.me?.role === 'student' ? <NotAllowed /> : <AvailabilityPage />;
}

/**
 * The 403 page's look and words (error-pages.tsx). Not that page itself: imported from this chunk, it made the
 * bundler split the first load of `/` into more, larger chunks, over its budget.
 */
function NotAllowed() {
  const text = 'Your account does not have access to this page. If you think it should, please contact us.';
  return (
    <section className="container-page flex flex-col items-center py-20 text-center">
      <PageMeta title="Not allowed" description={text} />
      <p className="text-5xl font-bold text-brand-700 dark:text-brand-300">403</p>
      <h1 className="mt-4 text-2xl font-bold">Not allowed</h1>
      <p className="mt-2 max-w-md text-slate-700 dark:text-slate-300">{text}</p>
      <Link to="/" className="btn-primary mt-8">
        Go to the home page
      </Link>
    </section>
  );
}
