import type { Me } from '../common/session.ts';
import type { Deps } from './deps.ts';

/**
 * A feature's part of the data export, of account deletion (POPIA; DESIGN "Product decisions") and of a rename.
 * Each feature that stores something about a person registers one in `server.ts`, so the profile module
 * composes them and never reaches into another feature's storage. A part works through its own repository
 * (`deps.repos.<feature>`, or `tx.repos.<feature>` inside the transaction it is given), on whichever engine.
 */
export interface PersonalDataPart {
  /** Keys this part adds to the export file, e.g. `{ questions, answers, votes }`. */
  exportFor(deps: Deps, me: Me): Promise<Record<string, unknown>>;
  /** Removes or anonymises the user's data; runs inside the deletion's transaction, before the account goes. */
  eraseFor(tx: Deps, userId: string): Promise<void>;
  /**
   * For a feature that keeps a copy of the user's name: puts `name`, the new one, in its place; runs inside the
   * rename's transaction, after the account's name changed (docs/decisions/0025).
   */
  renameFor?(tx: Deps, userId: string, name: string): Promise<void>;
}
