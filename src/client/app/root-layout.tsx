import { Outlet, ScrollRestoration } from 'react-router-dom';
import { GoogleReturnNotice } from '../features/auth/google-return.tsx';
import { Footer } from './footer.tsx';
import { Navbar } from './navbar.tsx';

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:p-3 focus:shadow">
        Skip to content
      </a>
      <Navbar />
      <main id="main" className="flex-1" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
      <GoogleReturnNotice />
    </div>
  );
}

/** For /verify_login, which the spec shows without navbar or footer. */
export function BareLayout() {
  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center px-4 py-10">
      <Outlet />
    </main>
  );
}
