import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import type { ServedPageData } from '../../common/page-html.ts';
import type { Me } from '../../common/session.ts';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { useEngineWanted } from '../lib/engine-wanted.ts';
import { PageDataProvider } from '../lib/page-data.tsx';
import { SessionProvider, useSession } from '../lib/session.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { useIdle } from '../lib/idle.ts';
import { useToasterWanted } from '../lib/toast.ts';

// Not part of the first load (scripts/check-js-budget.ts): the offline engine (Dexie) and what runs on it
// load once the page is up; the toaster (sonner) with the first toast, its code already once the page is
// idle; and the service worker's update prompt and the word that the app works offline once the page is idle
// (main.tsx registers the worker as soon as the page has loaded).
const loadSessionStore = () => import('./offline-setup.ts').then((m) => m.sessionStore);
const DataSync = lazy(() => import('./data-sync.tsx').then((m) => ({ default: m.DataSync })));
const StorageNotice = lazy(() => import('./storage-notice.tsx').then((m) => ({ default: m.StorageNotice })));
const loadToaster = () => import('../components/app-toaster.tsx');
const AppToaster = lazy(() => loadToaster().then((m) => ({ default: m.AppToaster })));

const UpdatePrompt = lazy(() => import('./pwa.tsx').then((m) => ({ default: m.UpdatePrompt })));
const OfflineReadyNotice = lazy(() => import('./pwa.tsx').then((m) => ({ default: m.OfflineReadyNotice })));

/**
 * The toaster once a toast is raised, and the service worker's prompts (pwa.tsx) once the page is idle. The
 * toaster's code loads when idle too, so that a toast raised offline later has it; mounting it waits for a toast
 * (it measures the page, a long task on a slow phone).
 */
function Later() {
  const idle = useIdle();
  const toasterWanted = useToasterWanted();
  useEffect(() => {
    if (idle) void loadToaster();
  }, [idle]);
  return (
    <Suspense fallback={null}>
      {toasterWanted && <AppToaster />}
      {idle && <UpdatePrompt />}
      {idle && <OfflineReadyNotice />}
    </Suspense>
  );
}

/** The offline engine and what tells of its storage, once the page is hydrated and wants them (lib/engine-wanted.ts). */
function Engine() {
  const hydrated = useHydrated();
  const { session } = useSession();
  const wanted = useEngineWanted(session.me !== undefined);
  if (!hydrated || !wanted) return null;
  return (
    <Suspense fallback={null}>
      <DataSync />
      <StorageNotice />
    </Suspense>
  );
}

/**
 * The app around its router: the browser's (main.tsx), or a static one when pages are rendered at build time.
 * `servedUser`: the user the page was rendered for (lib/session.tsx); `servedData`: the data the server rendered
 * it with (lib/page-data.tsx).
 */
export function App({
  children,
  servedUser,
  servedData,
}: {
  children: ReactNode;
  servedUser?: Me | undefined;
  servedData?: ServedPageData | undefined;
}) {
  return (
    <SessionProvider loadStore={loadSessionStore} servedUser={servedUser}>
      <PageDataProvider value={servedData}>
        <Engine />
        <ConfirmProvider>
          {children}
          <Later />
        </ConfirmProvider>
      </PageDataProvider>
    </SessionProvider>
  );
}
