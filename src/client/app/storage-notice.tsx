import { useEffect } from 'react';
import { useIdle } from '../lib/idle.ts';
import { toast } from '../lib/toast.ts';
import { useStorageStatus } from '../offline/hooks.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const storageTexts = {
  clearedTitle: "This device's saved data was cleared",
  cleared(unsent: number | null): string {
    const why =
      'Browsers do this when space runs low or after some days without a visit. Your data is being downloaded again';
    if (unsent === null) return `${why}. Anything you had not sent yet could not be kept.`;
    if (unsent === 0) return `${why}; everything you had made was already sent, so nothing was lost.`;
    return `${why}, but ${plural(unsent, 'change', 'changes')} you had not sent yet could not be kept.`;
  },
  failingTitle: "Changes can't be saved on this device",
  failing:
    "The browser's storage stopped working. Reload the page; if this keeps happening, free some space or try another browser.",
};

/**
 * Tells the user what the engine found about the device's storage (offline/storage.ts): cleared by the
 * browser (once per page, with what was lost), or failing. The toast stays until closed: it says what was
 * lost, which the user must not miss. A failure also shows in the navbar's indicator while it lasts.
 */
export function StorageNotice() {
  const storage = useStorageStatus();
  const idle = useIdle();
  useEffect(() => {
    // What was lost is told once the page has loaded: the page comes first, and the first toast puts the
    // toaster on the page (a long task on a slow phone). A failure is told at once: nothing can be saved.
    if (storage.state === 'cleared') {
      if (idle)
        toast.info(storageTexts.clearedTitle, {
          description: storageTexts.cleared(storage.unsent),
          duration: Infinity,
        });
    } else if (storage.state === 'failing')
      toast.error(storageTexts.failingTitle, { description: storageTexts.failing, duration: Infinity });
    else toast.dismiss(storageTexts.failingTitle);
  }, [storage, idle]);
  return null;
}
