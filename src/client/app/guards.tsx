import { lazy, Suspense, useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Role } from '../../common/roles.ts';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useSession } from '../lib/session.tsx';
import { guardDecision } from './guard-decision.ts';
import { useLoginNoticeState } from './login-notice.tsx';

/** The 403 page, loaded when a guard first refuses: few visits meet it, and the first load is at its budget. */
const NotAllowedPage = lazy(() => import('./error-pages.tsx').then((m) => ({ default: m.NotAllowedPage })));

/** A page for signed-in people (guard-decision.ts says who sees it and who goes where). */
function Guard({ role, redirectTo }: { role?: Role; redirectTo: string }) {
  const { session } = useSession();
  const location = useLocation();
  const [wasSignedIn, setWasSignedIn] = useState(false);
  const loginNotice = useLoginNoticeState();
  if (!wasSignedIn && (session.status === 'signed-in' || session.status === 'expired')) setWasSignedIn(true);
  const decision = guardDecision({ session, wasSignedIn, role, redirectTo });
  switch (decision.kind) {
    case 'wait':
      return null;
    case 'redirect':
      if (!decision.remember) return <Navigate to={decision.to} replace />;
      // A visitor arriving: told why they are not on the page they opened, and brought back to it after logging in.
      rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
      return <Navigate to={decision.to} replace state={loginNotice} />;
    case 'forbidden':
      return (
        <Suspense fallback={null}>
          <NotAllowedPage />
        </Suspense>
      );
    case 'show':
      return <Outlet />;
  }
}

export const RequireUser = ({ redirectTo = '/' }: { redirectTo?: string }) => <Guard redirectTo={redirectTo} />;

export const RequireRole = ({ role }: { role: Role }) => <Guard role={role} redirectTo="/" />;
