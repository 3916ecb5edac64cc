import { LogOut } from 'lucide-react';
import { NavLink, useNavigate } from 'react-router-dom';
import { dashboardPathByRole } from '../../common/roles.ts';
import { sessionMessages } from '../../common/session.messages.ts';
import type { Me } from '../../common/session.ts';
import { NoticeBell } from '../features/notices/notice-bell.tsx';
import { useSession } from '../lib/session.tsx';
import { toast } from '../lib/toast.ts';
import { useConfirmLogOut } from './confirm-log-out.ts';
import { linkClass } from './nav-link-class.ts';

/** Spec §2 navbar, signed in: Dashboard by role, and log-out, which asks first. */
export function SignedInLinks({ me }: { me: Me }) {
  const { signOut } = useSession();
  const confirmLogOut = useConfirmLogOut();
  const navigate = useNavigate();

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

  return (
    <>
      <li>
        <NavLink to="/qa" className={linkClass}>
          Community
        </NavLink>
      </li>
      <li>
        <NavLink to="/offers" className={linkClass}>
          Courses
        </NavLink>
      </li>
      <li>
        <NavLink to={dashboardPathByRole[me.role]} className={linkClass}>
          Dashboard
        </NavLink>
      </li>
      <li>
        <NavLink to="/profile" className={linkClass}>
          Profile
        </NavLink>
      </li>
      <li>
        <NoticeBell className={linkClass} />
      </li>
      <li>
        <button
          type="button"
          aria-label="Log out"
          title="Log out"
          className={`${linkClass({ isActive: false })} w-full`}
          onClick={() => void logOut()}
        >
          <LogOut aria-hidden size={20} />
          <span className="ml-2 sm:hidden">Log out</span>
        </button>
      </li>
    </>
  );
}
