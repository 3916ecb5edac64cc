import { sessionMessages } from '../../common/session.messages.ts';
import { useConfirm } from '../components/confirm-dialog.tsx';

const unsentItems = (count: number) => (count === 1 ? '1 item that has not' : `${count} items that have not`);

/**
 * Asks before logging out. Log-out drops the queue (it belongs to this user and is never sent with another's
 * cookie), so unsent items are named first, with a destructive button. `always`: ask even when nothing is
 * queued (the navbar's spec confirmation); otherwise only then.
 */
export function useConfirmLogOut() {
  const confirm = useConfirm();
  return async ({ always }: { always: boolean }): Promise<boolean> => {
    // The engine is loaded by now (someone is signed in); imported here to keep it out of the first load.
    const { countUnsent } = await import('../offline/engine.ts');
    const unsent = await countUnsent();
    if (unsent > 0) {
      return confirm({
        title: 'Log out',
        message: `You have ${unsentItems(unsent)} been sent yet. If you log out now they are lost. Log out anyway?`,
        confirmLabel: 'Log out anyway',
        destructive: true,
      });
    }
    return !always || confirm({ title: 'Log out', message: sessionMessages.logoutConfirm, confirmLabel: 'Log out' });
  };
}
