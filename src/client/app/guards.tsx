import { useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Role } from '../../common/roles.ts';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useSession, type SessionState } from '../lib/session.tsx';
import { NotAllowedPage } from './error-pages.tsx';

/**
 * Where a guarded page sends someone who is not signed in. Signed out while on the page (a log-out, a deleted
 * account): where the sign-out says. Arriving signed out: `redirectTo`, and back here after logging in.
 */
function useSignedOutTarget(session: SessionState, redirectTo: string): string | undefined {
  const location = useLocation();
  // Whether this page was open while signed in: a later sign-out is then the user leaving, not arriving.
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (!wasSignedIn && (session.status === 'signed-in' || session.status === 'expired')) setWasSignedIn(true);
  if (session.status !== 'signed-out') return undefined;
  if (wasSignedIn && session.leaveTo) return session.leaveTo;
  rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
  return redirectTo;
}

/**
 * Spec §2: nothing while the session is being found out (the server's answer or this device's record). An
 * ended session keeps the page, and what was typed on it, while the app offers to log in again.
 */
export function RequireUser({ redirectTo = '/' }: { redirectTo?: string }) {
  const { session } = useSession();
  const target = useSignedOutTarget(session, redirectTo);
  if (session.status === 'loading') return null;
  if (target) return <Navigate to={target} replace />;
  return <Outlet />;
}

/** The server checks roles on every call; this only spares people a page they cannot use. */
export function RequireRole({ role }: { role: Role }) {
  const { session } = useSession();
  const target = useSignedOutTarget(session, '/');
  if (session.status === 'loading') return null;
  if (target) return <Navigate to={target} replace />;
  if (session.me?.role !== role) return <NotAllowedPage />;
  return <Outlet />;
}
