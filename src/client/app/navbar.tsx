import { GraduationCap, LogOut, Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '../lib/toast.ts';
import { sessionMessages } from '../../common/session.messages.ts';
import { brand } from '../../common/brand.ts';
import { dashboardPathByRole } from '../../common/roles.ts';
import { useSession } from '../lib/session.tsx';
import { useConfirmLogOut } from './confirm-log-out.ts';

// Only for a signed-in user: it brings the offline engine and a dialog, which a visitor's first load does without.
const SyncIndicator = lazy(() => import('./sync-indicator.tsx').then((m) => ({ default: m.SyncIndicator })));

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-11 items-center rounded-lg px-3 font-medium ${
    isActive ? 'bg-brand-50 text-brand-800 dark:bg-brand-900/40 dark:text-brand-200' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'
  }`;

/** Spec §2 navbar: different links signed in and out; Dashboard by role; log-out asks first. */
export function Navbar() {
  const { session, signOut } = useSession();
  const confirmLogOut = useConfirmLogOut();
  const navigate = useNavigate();
  const location = useLocation();
  // The phone menu belongs to the page it was opened on: going to another page closes it.
  const [openOn, setOpenOn] = useState<string>();
  const open = openOn === location.pathname;

  const menuButton = useRef<HTMLButtonElement>(null);

  // Escape closes the phone menu and hands focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(undefined);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);

  // Spec §2: asks first (and names unsent items, which log-out drops), signs out and goes to /. Works offline: the server hears of it when it can.
  async function logOut() {
    if (!(await confirmLogOut({ always: true }))) return;
    try {
      await signOut();
      void navigate('/');
    } catch {
      toast.error(sessionMessages.logoutFailed);
    }
  }

  const links =
    session.status === 'signed-in' || session.status === 'expired' ? (
      <>
        <li><NavLink to="/qa" className={linkClass}>Community</NavLink></li>
        <li><NavLink to="/offers" className={linkClass}>Courses</NavLink></li>
        <li><NavLink to={dashboardPathByRole[session.me.role]} className={linkClass}>Dashboard</NavLink></li>
        <li><NavLink to="/profile" className={linkClass}>Profile</NavLink></li>
        <li>
          <button type="button" aria-label="Log out" title="Log out" className={`${linkClass({ isActive: false })} w-full`} onClick={() => void logOut()}>
            <LogOut aria-hidden size={20} />
            <span className="ml-2 sm:hidden">Log out</span>
          </button>
        </li>
      </>
    ) : session.status === 'signed-out' ? (
      <>
        <li><NavLink to="/" end className={linkClass}>Home</NavLink></li>
        <li><NavLink to="/testimonials" className={linkClass}>Testimonials</NavLink></li>
        <li><NavLink to="/login" className={linkClass}>Sign In</NavLink></li>
      </>
    ) : null;

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <nav aria-label="Main" className="container-page flex min-h-16 flex-wrap items-center justify-between gap-2 py-2">
        <NavLink to="/" className="flex min-h-11 items-center gap-2 text-lg font-bold text-brand-800 dark:text-brand-200">
          <GraduationCap aria-hidden size={28} />
          {brand.name}
        </NavLink>
        {(session.status === 'signed-in' || session.status === 'expired') && (
          <Suspense fallback={null}>
            <SyncIndicator />
          </Suspense>
        )}
        {links && (
          <button
            ref={menuButton}
            type="button"
            className="btn-secondary min-w-11 px-2 sm:hidden"
            aria-expanded={open}
            aria-controls="main-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpenOn(open ? undefined : location.pathname)}
          >
            {open ? <X aria-hidden size={22} /> : <Menu aria-hidden size={22} />}
          </button>
        )}
        <ul id="main-menu" className={`${open ? 'flex' : 'hidden'} w-full flex-col gap-1 pb-2 sm:flex sm:w-auto sm:flex-row sm:items-center sm:pb-0`}>
          {links}
        </ul>
      </nav>
    </header>
  );
}
