import { lazy, Suspense } from 'react';
import { useLocation, useMatches } from 'react-router-dom';

/**
 * What a page for signed-in people says to a visitor it sends away: "Log in to see this module." A guarded
 * route names it in its `handle` (router.tsx); the guard carries it, in the navigation's state, to the page the
 * visitor lands on, which shows it (the spec sends them to / or /login; silently, a shared link seemed broken).
 */
export interface LoginNoticeHandle {
  loginNotice: string;
}

export interface LoginNoticeState {
  loginNotice: string;
}

const noticeOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'loginNotice' in value && typeof value.loginNotice === 'string'
    ? value.loginNotice
    : undefined;

/** The state a guard sends a visitor away with: the notice of the deepest route that names one. */
export function useLoginNoticeState(): LoginNoticeState | undefined {
  const notice = useMatches()
    .map((match) => noticeOf(match.handle))
    .findLast((text) => text !== undefined);
  return notice ? { loginNotice: notice } : undefined;
}

// Drawn by its own chunk, which loads only when a guard sent the visitor here: the first load of / does without it
// (its JavaScript budget).
const LoginNoticeView = lazy(() => import('./login-notice-view.tsx'));

/** The notice, where a guard sent the visitor; with a way to the login form, which says it again. */
export function LoginNotice() {
  const { state, pathname } = useLocation();
  const notice = noticeOf(state);
  if (!notice) return null;
  return (
    <Suspense fallback={null}>
      <LoginNoticeView notice={notice} state={{ loginNotice: notice }} toLogin={pathname !== '/login'} />
    </Suspense>
  );
}
