import { GraduationCap, Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { brand } from '../../common/brand.ts';
import { useEngineWanted } from '../lib/engine-wanted.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { useSession } from '../lib/session.tsx';
import { linkClass } from './nav-link-class.ts';

// Only for a signed-in user: they bring the offline engine, the log-out flow and a dialog, which a visitor's
// first load does without.
const SignedInLinks = lazy(() => import('./signed-in-links.tsx').then((m) => ({ default: m.SignedInLinks })));
const SyncIndicator = lazy(() => import('./sync-indicator.tsx').then((m) => ({ default: m.SyncIndicator })));
const RefreshButton = lazy(() => import('./refresh-button.tsx').then((m) => ({ default: m.RefreshButton })));

/** Spec §2 navbar: different links signed in and out (signed-in-links.tsx). */
export function Navbar() {
  const { session } = useSession();
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

  const signedIn = session.status === 'signed-in' || session.status === 'expired';
  // A signed-in page rendered at build time (scripts/prerender.ts) has the lazy parts to come: they render
  // once it is hydrated (lib/hydrated.ts).
  const hydrated = useHydrated();
  // Where the engine runs, its Refresh while the device saves data (refresh-button.tsx, nothing otherwise).
  const engineRuns = useEngineWanted(signedIn);
  const links = signedIn ? (
    hydrated && (
      <Suspense fallback={null}>
        <SignedInLinks me={session.me} />
      </Suspense>
    )
  ) : session.status === 'signed-out' ? (
    <>
      <li>
        <NavLink to="/" end className={linkClass}>
          Home
        </NavLink>
      </li>
      <li>
        <NavLink to="/testimonials" className={linkClass}>
          Testimonials
        </NavLink>
      </li>
      <li>
        <NavLink to="/login" className={linkClass}>
          Sign In
        </NavLink>
      </li>
    </>
  ) : null;

  return (
    <header
      className={`@container sticky top-0 z-30 border-b border-slate-200 dark:border-slate-800 ${
        // Open, the phone menu lies over the page: see-through, the text behind it showed between its links.
        open ? 'bg-white shadow-lg dark:bg-slate-950' : 'bg-white/95 backdrop-blur dark:bg-slate-950/95'
      }`}
    >
      {/* Large text (200 %) made the phone navbar two rows and a third of the screen: its heights are pixels, so
          only its words grow, and the logo's name gives way to the cap where the row is under 18 of the reader's
          rems (a 360-px phone above 125 % text; a container query's rem follows the page's text size). */}
      <nav
        aria-label="Main"
        className="container-page flex min-h-[64px] flex-wrap items-center justify-between gap-2 py-2"
      >
        <NavLink
          to="/"
          className="flex min-h-[44px] items-center gap-2 text-lg font-bold text-brand-800 dark:text-brand-200"
        >
          <GraduationCap aria-hidden size={28} className="shrink-0" />
          <span className="@max-[18rem]:sr-only">{brand.name}</span>
        </NavLink>
        {signedIn && hydrated && (
          <Suspense fallback={null}>
            <SyncIndicator />
          </Suspense>
        )}
        {engineRuns && hydrated && (
          <Suspense fallback={null}>
            <RefreshButton className={signedIn ? '' : 'ml-auto'} />
          </Suspense>
        )}
        {(signedIn || links) && (
          <button
            ref={menuButton}
            type="button"
            className="btn-secondary min-h-[44px] min-w-[44px] px-2 py-0 sm:hidden"
            aria-expanded={open}
            aria-controls="main-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpenOn(open ? undefined : location.pathname)}
          >
            {open ? <X aria-hidden size={22} /> : <Menu aria-hidden size={22} />}
          </button>
        )}
        <ul
          id="main-menu"
          className={`${open ? 'flex' : 'hidden'} w-full flex-col gap-1 pb-2 sm:flex sm:w-auto sm:flex-row sm:items-center sm:pb-0`}
        >
          {links}
        </ul>
      </nav>
    </header>
  );
}
