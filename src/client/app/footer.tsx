import { Link } from 'react-router-dom';
import { brand, mailtoUrl } from '../../common/brand.ts';
import { InstallButton } from './install-button.tsx';

/** Spec §2 footer: privacy policy, about, a contact mail link and a professional-profile link. */
export function Footer() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white py-8 dark:border-slate-800 dark:bg-slate-950">
      <div className="container-page flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          © {new Date().getFullYear()} {brand.name}. Tutoring for South African students.
        </p>
        <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
          <li><Link className="link inline-flex min-h-11 items-center" to="/privacy-policy">Privacy Policy</Link></li>
          <li><Link className="link inline-flex min-h-11 items-center" to="/about">About</Link></li>
          <li><a className="link inline-flex min-h-11 items-center" href={mailtoUrl}>Contact</a></li>
          <li>
            <a className="link inline-flex min-h-11 items-center" href={brand.professionalProfileUrl} target="_blank" rel="noopener noreferrer">
              LinkedIn
            </a>
          </li>
          <li><InstallButton className="btn-secondary min-h-11 text-sm" /></li>
        </ul>
      </div>
    </footer>
  );
}
