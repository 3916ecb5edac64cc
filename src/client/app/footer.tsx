import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { brand, mailtoUrl } from '../../common/brand.ts';
import { useIdle } from '../lib/idle.ts';

// The browser offers installation only once the service worker is registered, which waits for idle (app.tsx).
const InstallButton = lazy(() => import('./install-button.tsx').then((m) => ({ default: m.InstallButton })));

/** Spec §2 footer: privacy policy, about, a contact mail link and a professional-profile link. */
export function Footer() {
  const idle = useIdle();
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white py-8 dark:border-slate-800 dark:bg-slate-950">
      <div className="container-page flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        {/* Pages rendered at build time carry the build's year: hydrating one in a later year keeps it. */}
        <p className="text-sm text-slate-600 dark:text-slate-400" suppressHydrationWarning>
          © {new Date().getFullYear()} {brand.name}. Tutoring for South African students.
        </p>
        <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <li>
            <Link className="link inline-flex min-h-11 items-center" to="/privacy-policy">
              Privacy Policy
            </Link>
          </li>
          <li>
            <Link className="link inline-flex min-h-11 items-center" to="/about">
              About
            </Link>
          </li>
          <li>
            <a className="link inline-flex min-h-11 items-center" href={mailtoUrl}>
              Contact
            </a>
          </li>
          <li>
            <a
              className="link inline-flex min-h-11 items-center"
              href={brand.professionalProfileUrl}
              target="_blank"
              rel="noopener noreferrer"
            >
              LinkedIn
            </a>
          </li>
          {idle && (
            <li>
              <Suspense fallback={null}>
                <InstallButton className="btn-secondary min-h-11 text-sm" />
              </Suspense>
            </li>
          )}
        </ul>
      </div>
    </footer>
  );
}
