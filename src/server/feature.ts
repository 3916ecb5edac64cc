import type { Hono } from 'hono';
import type { SessionEnv } from './auth/auth.middleware.ts';
import type { Deps } from './deps.ts';
import type { PageRenderer } from './http/rendered-pages.ts';
import type { PersonalDataPart } from './personal-data.ts';

/** Requests to `path` (a Hono pattern), for these methods (every method when left out). */
export interface RouteScope {
  path: string;
  methods?: readonly ('GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE')[];
}

/**
 * What a server module (`modules/<feature>/<feature>.feature.ts`) tells the shared places, which read it from
 * the one list in `features.ts` (CONVENTIONS §12): a new feature is its folder and a line there. Its API
 * routes are the exception: `createApiRoutes` (app.ts) chains them by hand, so that their types reach the
 * typed client (`ApiRoutes`).
 */
export interface ServerFeature {
  name: string;
  /** The requests that read who is signed in (`c.get('me')`, app.ts); the public ones skip the session read. */
  signedIn?: readonly RouteScope[];
  /** The requests whose JSON answers can run to many KB and are compressed (app.ts, `compressJson`). */
  compressed?: readonly RouteScope[];
  /** Pages the server renders per request (http/rendered-pages.ts); `signedIn`: those read for the session's user. */
  pages?: { signedIn?: readonly string[]; create(deps: Deps, render: PageRenderer): Hono<SessionEnv> };
  /** Its part of the data export, account deletion and rename (personal-data.ts). */
  personalData?: PersonalDataPart;
  /** Work the feature runs in every process (the bookings' reminders), stopped when the server closes. */
  start?(deps: Deps): { stop(): Promise<void> };
}
