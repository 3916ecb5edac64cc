/**
 * Whose data this device holds, as the session provider (lib/session.tsx) sees it: the state, and the
 * transitions it asks for. The engine owns and persists it (offline/identity.ts, OFFLINE-ENGINE.md rule 11);
 * it is described here, below both, so that lib/ never imports the engine.
 */
import type { Me } from '../../common/session.ts';

export type Identity =
  /** Not known yet: the server has not answered, and nothing on the device says. */
  | { state: 'unknown' }
  /** Nobody is signed in here, and the device holds nobody's data. */
  | { state: 'visitor' }
  /** `confirmed`: the server said so while this page was open (not only the page or the device's record). */
  | { state: 'signed-in'; me: Me; confirmed: boolean }
  /** The server said this page's session ended: the page stays, and their data and queue wait for them. */
  | { state: 'ended'; me: Me };

/** The transitions the session asks of the device; offline/identity.ts says what each does. */
export interface DeviceIdentity {
  current(): Identity;
  /** Told of each change; `followed`: another tab made it. */
  subscribe(listener: (followed: boolean) => void): () => void;
  named(me: Me): Promise<void>;
  nobody(): Promise<void>;
  ended(): Promise<void>;
  settle(): Promise<void>;
  signOut(options?: { serverDone?: boolean }): Promise<void>;
  signOutSent(): void;
}
