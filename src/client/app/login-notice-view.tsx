import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import type { LoginNoticeState } from './login-notice.tsx';

/** login-notice.tsx's notice: what a guarded page says to the visitor it sent here, and a way to log in. */
export default function LoginNoticeView({
  notice,
  state,
  toLogin,
}: {
  notice: string;
  state: LoginNoticeState;
  toLogin: boolean;
}) {
  const box = useRef<HTMLParagraphElement>(null);
  // Toasts on a phone appear under the navbar, where this lies: they go under it instead (app-toaster.tsx).
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--toasts-top', `${Math.round(element.getBoundingClientRect().bottom)}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--toasts-top');
    };
  }, []);
  return (
    // Notice's look without its icons, which a visitor's first load of / does without (its JavaScript budget).
    // Over the page, just under the navbar, not in its flow: arriving after the page (its own chunk), it would
    // push everything down (a layout shift).
    <div className="container-page pointer-events-none fixed inset-x-0 top-20 z-20">
      <p
        ref={box}
        role="status"
        className="pointer-events-auto mx-auto max-w-md rounded-lg border shadow-lg border-slate-200 bg-slate-100 p-3 text-sm font-medium text-slate-800 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100"
      >
        {notice}{' '}
        {toLogin && (
          <Link to="/login" state={state} className="link">
            Log in
          </Link>
        )}
      </p>
    </div>
  );
}
