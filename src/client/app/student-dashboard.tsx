import { PageMeta } from '../components/page-meta.tsx';
import { useSession } from '../lib/session.tsx';

export function StudentDashboardPage() {
  const { session } = useSession();
  return (
    <section className="container-page py-10">
      <PageMeta title="Dashboard" description="Your TutorBook sessions." />
      <h1 className="text-3xl font-bold">Welcome, {session.me?.name}!</h1>
      <h2 className="mt-8 text-xl font-semibold">Your sessions</h2>
      <p className="card mt-4 text-slate-700 dark:text-slate-300">No sessions booked yet.</p>
    </section>
  );
}
