import { Navigate, Outlet } from 'react-router-dom';
import type { Role } from '../../common/roles.ts';
import { useSession } from '../lib/session.tsx';
import { NotAllowedPage } from './error-pages.tsx';

/** Spec §2: nothing while the session loads; signed-out visitors go to `redirectTo`. */
export function RequireUser({ redirectTo = '/' }: { redirectTo?: string }) {
  const { session } = useSession();
  if (session.status === 'loading') return null;
  if (session.status === 'signed-out') return <Navigate to={redirectTo} replace />;
  return <Outlet />;
}

/** The server checks roles on every call; this only spares people a page they cannot use. */
export function RequireRole({ role }: { role: Role }) {
  const { session } = useSession();
  if (session.status === 'loading') return null;
  if (session.status === 'signed-out') return <Navigate to="/" replace />;
  if (session.me.role !== role) return <NotAllowedPage />;
  return <Outlet />;
}
