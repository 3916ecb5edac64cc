import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';
import { useHydrated } from '../lib/hydrated.ts';
import { useSession } from '../lib/session.tsx';
import { Footer } from './footer.tsx';
import { LoginNotice } from './login-notice.tsx';
import { Navbar } from './navbar.tsx';

// Its login form brings the form validation chunk, which the first load does without.
const SessionEndedDialog = lazy(() =>
  import('./session-ended-dialog.tsx').then((m) => ({ default: m.SessionEndedDialog })),
);

// Only on the way back from Google (`?google=`): not part of any page's first load.
const GoogleReturnNotice = lazy(() =>
  import('../features/auth/google-return.tsx').then((m) => ({ default: m.GoogleReturnNotice })),
);

export function RootLayout() {
  const { session } = useSession();
  const { search } = useLocation();
  const hydrated = useHydrated();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:p-3 focus:shadow"
      >
        Skip to content
      </a>
      <Navbar />
      {/* At least a screen high: the footer starts below the fold, so a page that fills in (a lazy page, a
          redirect) never moves it in view (layout shift). */}
      <main id="main" className="min-h-dvh flex-1" tabIndex={-1}>
        <LoginNotice />
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
      {hydrated && search.includes('google=') && (
        <Suspense fallback={null}>
          <GoogleReturnNotice />
        </Suspense>
      )}
      {session.status === 'expired' && (
        <Suspense fallback={null}>
          <SessionEndedDialog />
        </Suspense>
      )}
    </div>
  );
}

/** For /verify_login, which the spec shows without navbar or footer. */
export function BareLayout() {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center px-4 py-10">
      <Outlet />
    </main>
  );
}
