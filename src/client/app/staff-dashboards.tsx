/** The staff dashboards: app/ composes them from the features' parts (the catalogue's Manage Modules, the bookings, the testimonials). */
import { CalendarRange } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';
import { SectionTabs } from '../components/section-tabs.tsx';
import { StaffBookings } from '../features/bookings/staff-bookings.tsx';
import { MoneyOwing } from '../features/bookings/money-owing.tsx';
import { PackagesAdmin } from '../features/bookings/packages-admin.tsx';
import { ReminderProblems } from '../features/bookings/reminder-problems.tsx';
import { AdminGroups, StaffGroups } from '../features/bookings/staff-groups.tsx';
import { useStaffBookings } from '../features/bookings/use-bookings.ts';
import { useGroupSessions } from '../features/bookings/use-group-sessions.ts';
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

/** How long the dashboard waits for the group sessions before it shows the rest without them. */
const groupsPatienceMs = 3_000;

/**
 * The tutor's dashboard: their week, the group sessions, and the bookings of their subjects. The week and the
 * groups come in as they are read; shown as they came, they grew and pushed what was below them down the screen
 * (a layout shift, and a tap on the wrong card). So the page waits for the bookings on the device (on a new
 * device, for the first refresh) and for the groups (at most 3 s; offline, not at all), and then shows them all
 * at once, in a space that keeps the footer out of view meanwhile.
 */
export function TutorDashboardPage() {
  const { session } = useSession();
  const modules = useModules();
  const categories = session.me?.categories ?? [];
  const tutorId = session.me?.id ?? '';
  const bookings = useStaffBookings({}, categories);
  const groups = useGroupSessions({});
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), groupsPatienceMs);
    return () => clearTimeout(timer);
  }, []);
  // Once shown, shown for good: a later read (new categories, say) must not take the bookings and a half-typed
  // confirmation away.
  const [ready, setReady] = useState(false);
  if (
    !ready &&
    bookings.status !== 'loading' &&
    (waited || !groups.online || groups.failed || groups.groups !== undefined)
  )
    setReady(true);
  return (
    <section className="container-page py-10">
      <PageMeta title="Tutor dashboard" description="Bookings in your subjects." />
      <DashboardHeading title="Tutor dashboard" />
      {categories.length > 0 && (
        <p className="mt-2 text-slate-700 dark:text-slate-300">Your subjects: {categories.join(', ')}.</p>
      )}
      {categories.length > 0 && <ReminderProblems />}
      {ready ? (
        <>
          {categories.length > 0 && <TutorWeekView tutorId={tutorId} bookings={bookings.data ?? []} />}
          <StaffGroups
            role="tutor"
            categories={categories}
            modules={modules.data}
            state={groups}
            bookings={bookings.data}
          />
          <StaffBookings role="tutor" categories={categories} userId={tutorId} />
        </>
      ) : (
        <p role="status" className="mt-8 min-h-screen text-slate-700 dark:text-slate-300">
          Loading your week and bookings…
        </p>
      )}
    </section>
  );
}

type AdminSection = 'bookings' | 'money' | 'packages' | 'groups' | 'modules' | 'testimonials';
const sectionsByHash: readonly AdminSection[] = ['money', 'packages', 'modules', 'groups', 'testimonials'];

/**
 * The admin's section: Bookings, the daily work, unless the address names another (`#money`, `#modules`, …), so a
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
  // Money is read from the server (every booking owing): only once its tab is first opened, then kept, so that
  // a statement half-chosen survives a look at another tab.
  const [moneyOpened, setMoneyOpened] = useState(false);
  if (section === 'money' && !moneyOpened) setMoneyOpened(true);
  const [packagesOpened, setPackagesOpened] = useState(false);
  if (section === 'packages' && !packagesOpened) setPackagesOpened(true);
  const { session } = useSession();
  const modules = useModules();
  return (
    <section className="container-page py-10">
      <PageMeta title="Admin dashboard" description="Manage bookings, modules and testimonials." />
      <DashboardHeading title="Admin dashboard" />
      <ImportedAccountsNote />
      <ReminderProblems />
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
          { id: 'money', label: 'Money', content: moneyOpened ? <MoneyOwing /> : null },
          {
            id: 'packages',
            label: 'Packages',
            content: packagesOpened ? <PackagesAdmin modules={modules.data} /> : null,
          },
          { id: 'modules', label: 'Modules', content: <ManageModules /> },
          {
            id: 'groups',
            label: 'Groups',
            content: <AdminGroups modules={modules.data} />,
          },
          { id: 'testimonials', label: 'Testimonials', content: <ManageTestimonials /> },
        ]}
      />
    </section>
  );
}
