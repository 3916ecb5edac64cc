import { RouterProvider } from 'react-router-dom';
import { Toaster } from 'sonner';
import { ConfirmProvider } from '../components/confirm-dialog.tsx';
import { SessionProvider } from '../lib/session.tsx';
import { DataSync } from './data-sync.tsx';
import { UpdatePrompt } from './pwa.tsx';
import { router } from './router.tsx';

export function App() {
  return (
    <SessionProvider>
      <DataSync />
      <ConfirmProvider>
        <RouterProvider router={router} />
        <Toaster position="top-center" richColors closeButton toastOptions={{ duration: 6000 }} />
        <UpdatePrompt />
      </ConfirmProvider>
    </SessionProvider>
  );
}
