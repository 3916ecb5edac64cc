import { RouterProvider } from 'react-router-dom';
import { AppToaster } from '../components/app-toaster.tsx';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { SessionProvider } from '../lib/session.tsx';
import { DataSync } from './data-sync.tsx';
import { UpdatePrompt } from './pwa.tsx';
import { router } from './router.tsx';
import { StorageNotice } from './storage-notice.tsx';

export function App() {
  return (
    <SessionProvider>
      <DataSync />
      <StorageNotice />
      <ConfirmProvider>
        <RouterProvider router={router} />
        <AppToaster />
        <UpdatePrompt />
      </ConfirmProvider>
    </SessionProvider>
  );
}
