import { useLocation } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';
import { PayFastReturn } from '../features/bookings/pay-now.tsx';
import { StudentBookings } from '../features/bookings/student-bookings.tsx';
import { MyPackages } from '../features/bookings/my-packages.tsx';
import { useSession } from '../lib/session.tsx';

export function StudentDashboardPage() {
  const { session } = useSession();
  const { search } = useLocation();
  const me = session.me;
  if (!me) return null;
  return (
    <section className="container-page py-10">
      <PageMeta title="Dashboard" description="Your TutorBook sessions." />
      <h1 className="text-3xl font-bold">Welcome, {me.name}!</h1>
      <PayFastReturn search={search} />
      <h2 className="mt-8 text-xl font-semibold">Your sessions</h2>
      <StudentBookings userId={me.id} />
      <MyPackages userId={me.id} />
    </section>
  );
}
