import type { Role } from '../../common/roles.ts';
import type { SessionState } from '../lib/session.tsx';

/**
 * What a guarded page does for the session as it stands: wait while the session is being found out, send
 * someone away (`remember`: come back here after logging in), say the page is not for this role, or show it.
 */
export type GuardDecision =
  { kind: 'wait' } | { kind: 'redirect'; to: string; remember: boolean } | { kind: 'forbidden' } | { kind: 'show' };

export interface GuardInput {
  session: SessionState;
  /** Whether this page was open while signed in: a later sign-out is then the user leaving, not arriving. */
  wasSignedIn: boolean;
  /** The role the page is for; any signed-in user when left out. */
  role?: Role | undefined;
  /** Where a visitor arriving signed out is sent. */
  redirectTo: string;
}

/**
 * Spec §2. Signed out while on the page (a log-out, a deleted account): where the sign-out says. Arriving
 * signed out: `redirectTo`, and back here after logging in. An ended session keeps the page, and what was
 * typed on it, while the app offers to log in again. The server checks roles on every call; the role check
 * only spares people a page they cannot use.
 */
export function guardDecision({ session, wasSignedIn, role, redirectTo }: GuardInput): GuardDecision {
  switch (session.status) {
    case 'loading':
      return { kind: 'wait' };
    case 'signed-out':
      return wasSignedIn && session.leaveTo
        ? { kind: 'redirect', to: session.leaveTo, remember: false }
        : { kind: 'redirect', to: redirectTo, remember: true };
    case 'signed-in':
    case 'expired':
      return role && session.me.role !== role ? { kind: 'forbidden' } : { kind: 'show' };
  }
}
