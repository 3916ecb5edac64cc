/** The staff dashboards: app/ composes them from the features' parts (the catalogue's Manage Modules, the bookings, the testimonials). */
import { CalendarRange } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';
import { SectionTabs } from '../components/section-tabs.tsx';
import { StaffBookings } from '../features/bookings/staff-bookings.tsx';
import { StaffGroups } from '../features/bookings/staff-groups.tsx';
import { TutorWeekView } from '../features/bookings/tutor-week-view.tsx';
import { ManageModules } from '../features/catalogue/manage-modules.tsx';
import { useModules } from '../features/catalogue/use-modules.ts';
import { ManageTestimonials } from '../features/public/manage-testimonials.tsx';
import { ImportedAccountsNote } from '../features/staff/imported-accounts-note.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { useSession } from '../lib/session.tsx';

/** The heading, and the way to the working hours (the tutor's own; the admin's for any tutor). */
function DashboardHeading({ title }: { title: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-3xl font-bold">{title}</h1>
      <Link to="/availability" className="btn-secondary">
        <CalendarRange aria-hidden size={18} />
        Working hours
      </Link>
    </div>
  );
}

export function TutorDashboardPage() {
  const { session } = useSession();
  const modules = useModules();
  return (
    <section className="container-page py-10">
      <PageMeta title="Tutor dashboard" description="Bookings in your subjects." />
      <DashboardHeading title="Tutor dashboard" />
      <TutorWeekView tutorId={session.me?.id ?? ''} categories={session.me?.categories ?? []} />
      <StaffGroups role="tutor" categories={session.me?.categories ?? []} modules={modules.data} />
      <StaffBookings role="tutor" categories={session.me?.categories ?? []} userId={session.me?.id ?? ''} />
    </section>
  );
}

type AdminSection = 'bookings' | 'groups' | 'modules' | 'testimonials';
const sectionsByHash: readonly AdminSection[] = ['groups', 'modules', 'testimonials'];

/**
 * The admin's section: Bookings, the daily work, unless the address says `#groups`, `#modules` or `#testimonials`, so a
 * reload or a link keeps that section open. The page is rendered at build time without the hash: it is read once hydrated.
 */
function useAdminSection(): [AdminSection, (section: AdminSection) => void] {
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const named = sectionsByHash.find((id) => location.hash === `#${id}`);
  const section: AdminSection = hydrated && named ? named : 'bookings';
  const select = (next: AdminSection) =>
    void navigate(
      { search: location.search, hash: next === 'bookings' ? '' : next },
      { replace: true, preventScrollReset: true },
    );
  return [section, select];
}

/**
 * Bookings first, Manage Modules a tab away: one after the other, the bookings began about 5,000 px down a
 * phone, under the add form and every module.
 */
export function AdminDashboardPage() {
  const [section, setSection] = useAdminSection();
  const { session } = useSession();
  const modules = useModules();
  return (
    <section className="container-page py-10">
      <PageMeta title="Admin dashboard" description="Manage bookings, modules and testimonials." />
      <DashboardHeading title="Admin dashboard" />
      <ImportedAccountsNote />
      <SectionTabs
        label="Admin dashboard sections"
        selected={section}
        onSelect={setSection}
        sections={[
          {
            id: 'bookings',
            label: 'Bookings',
            content: <StaffBookings role="admin" categories={[]} userId={session.me?.id ?? ''} />,
          },
          {
            id: 'groups',
            label: 'Groups',
            content: <StaffGroups role="admin" categories={[]} modules={modules.data} />,
          },
          { id: 'modules', label: 'Modules', content: <ManageModules /> },
          { id: 'testimonials', label: 'Testimonials', content: <ManageTestimonials /> },
        ]}
      />
    </section>
  );
}
