/** The staff dashboards: app/ composes them from the features' parts (the catalogue's Manage Modules; bookings later). */
import { PageMeta } from '../components/page-meta.tsx';
import { useSession } from '../lib/session.tsx';
import { ManageModules } from '../features/catalogue/manage-modules.tsx';

export function TutorDashboardPage() {
  const { session } = useSession();
  const categories = session.me?.categories ?? [];
  return (
    <section className="container-page py-10">
      <PageMeta title="Tutor dashboard" description="Bookings in your subjects." />
      <h1 className="text-3xl font-bold">Tutor dashboard</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        {categories.length > 0 ? `Your subjects: ${categories.join(', ')}.` : 'You are not assigned to any module. Please contact support.'}
      </p>
      <p className="card mt-6 text-slate-700 dark:text-slate-300">No bookings in your subjects yet.</p>
    </section>
  );
}

export function AdminDashboardPage() {
  return (
    <section className="container-page py-10">
      <PageMeta title="Admin dashboard" description="Manage modules and bookings." />
      <h1 className="text-3xl font-bold">Admin dashboard</h1>
      <ManageModules />
      <h2 className="mt-8 text-xl font-semibold">Bookings</h2>
      <p className="card mt-4 text-slate-700 dark:text-slate-300">No bookings yet.</p>
    </section>
  );
}
