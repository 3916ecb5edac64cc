/** The staff dashboards: app/ composes them from the features' parts (the catalogue's Manage Modules, the bookings). */
import { PageMeta } from '../components/page-meta.tsx';
import { StaffBookings } from '../features/bookings/staff-bookings.tsx';
import { ManageModules } from '../features/catalogue/manage-modules.tsx';
import { useSession } from '../lib/session.tsx';

export function TutorDashboardPage() {
  const { session } = useSession();
  return (
    <section className="container-page py-10">
      <PageMeta title="Tutor dashboard" description="Bookings in your subjects." />
      <h1 className="text-3xl font-bold">Tutor dashboard</h1>
      <StaffBookings role="tutor" categories={session.me?.categories ?? []} userId={session.me?.id ?? ''} />
    </section>
  );
}

export function AdminDashboardPage() {
  const { session } = useSession();
  return (
    <section className="container-page py-10">
      <PageMeta title="Admin dashboard" description="Manage modules and bookings." />
      <h1 className="text-3xl font-bold">Admin dashboard</h1>
      <ManageModules />
      <StaffBookings role="admin" categories={[]} userId={session.me?.id ?? ''} />
    </section>
  );
}
