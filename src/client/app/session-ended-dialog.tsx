import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useNavigate } from 'react-router-dom';
import { landingPath, LoginForm } from '../features/auth/login-form.tsx';
import { useSession } from '../lib/session.tsx';
import { toast } from '../lib/toast.ts';
import { useConfirmLogOut } from './confirm-log-out.ts';

/**
 * When the server says the session has ended (it expired, the password was changed elsewhere, the account was
 * logged out on another device), the page stays behind this dialog with everything typed on it, and the user
 * logs in again here, or leaves.
 */
export function SessionEndedDialog() {
  const { session, signOut } = useSession();
  const navigate = useNavigate();
  const confirmLogOut = useConfirmLogOut();
  if (session.status !== 'expired') return null;

  async function leave() {
    // What waits for this user to log in again is lost on log-out: say so first.
    if (!(await confirmLogOut({ always: false }))) return;
    await signOut();
    void navigate('/');
  }

  return (
    <AlertDialog.Root open>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 dark:bg-black/70" />
        {/* A choice is needed (log in, or log out): Escape does not make it. */}
        <AlertDialog.Content
          onEscapeKeyDown={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-600 dark:bg-slate-900 dark:shadow-black/60"
        >
          <AlertDialog.Title className="text-lg font-semibold">Your session has ended</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 mb-6 text-slate-700 dark:text-slate-300">
            Log in again to carry on. What you typed on this page is still here.
          </AlertDialog.Description>
          <LoginForm
            showLinks={false}
            initialEmail={session.me.email}
            onLoggedIn={(me) => {
              // Someone else logging in here does not inherit the page.
              if (me.id === session.me.id) toast.success(`Welcome back, ${me.name}.`);
              else void navigate(landingPath(me), { replace: true });
            }}
          />
          <button type="button" className="btn-secondary mt-3 w-full" onClick={() => void leave()}>
            Log out
          </button>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
