import { useState } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Role } from '../../common/roles.ts';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useSession } from '../lib/session.tsx';
import { NotAllowedPage } from './error-pages.tsx';
import { guardDecision } from './guard-decision.ts';

/** A page for signed-in people (guard-decision.ts says who sees it and who goes where). */
function Guard({ role, redirectTo }: { role?: Role; redirectTo: string }) {
  const { session } = useSession();
  const location = useLocation();
  const [wasSignedIn, setWasSignedIn] = useState(false);
  if (!wasSignedIn && (session.status === 'signed-in' || session.status === 'expired')) setWasSignedIn(true);
  const decision = guardDecision({ session, wasSignedIn, role, redirectTo });
  switch (decision.kind) {
    case 'wait':
      return null;
    case 'redirect':
      if (decision.remember) rememberReturnTo(`${location.pathname}${location.search}${location.hash}`);
      return <Navigate to={decision.to} replace />;
    case 'forbidden':
      return <NotAllowedPage />;
    case 'show':
      return <Outlet />;
  }
}

export const RequireUser = ({ redirectTo = '/' }: { redirectTo?: string }) => <Guard redirectTo={redirectTo} />;

export const RequireRole = ({ role }: { role: Role }) => <Guard role={role} redirectTo="/" />;
