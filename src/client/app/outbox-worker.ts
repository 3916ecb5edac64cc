/**
 * The service worker's sender (built on its own by vite.worker.config.ts, imported by the worker Workbox
 * generates): when the browser fires the Background Sync that a page registered (background-send.ts), it sends
 * what the device's signed-in user queued, with the engine and mutations the pages use, and nothing else: no
 * list is refreshed, no page is there to show it. Items it cannot send yet make the event fail, so the browser
 * tries again later.
 */
import './sync-modules.ts';
import './push-handler.ts';
import { localDb } from '../offline/db.ts';
import { engine } from '../offline/engine.ts';
import { outboxSyncTag } from './background-send.ts';

/** The part of the worker's scope used here (the client's types are the page's: DOM, not WebWorker). */
interface SyncEvent extends Event {
  readonly tag: string;
  waitUntil(work: Promise<unknown>): void;
}
const worker = globalThis as unknown as {
  addEventListener(type: 'sync', listener: (event: SyncEvent) => void): void;
};

worker.addEventListener('sync', (sync) => {
  if (sync.tag !== outboxSyncTag) return;
  sync.waitUntil(
    engine
      .sendQueued()
      .finally(() => {
        // The worker lives on between events: an open connection would keep the browser from deleting the
        // database (clearing the site's data) and hold up a page's upgrade. The next event opens it again.
        engine.stop();
        localDb.close({ disableAutoOpen: false });
      })
      .then((left) => {
        if (left > 0) throw new Error(`${left} queued items could not be sent yet.`);
      }),
  );
});
