/** The answer a change was refused with: its status and the JSON body as it was sent. */
export interface StoredRefusal {
  status: number;
  body: string;
}

/** A change queued on a device and refused for good (offline-changes.ts says why it is kept). */
export interface ChangeRefusal extends StoredRefusal {
  userId: string;
  /** Made by the client, one per queued change. */
  changeId: string;
  /** UTC ISO time. */
  createdAt: string;
}

/**
 * The refusals of changes queued offline, kept for a while under the user and the change's id
 * (docs/decisions/0026; db/change-refusals.ts on SQL). They go with the user's account
 * (`deleteOf`, in the deletion's transaction).
 */
export interface RefusalsRepository {
  /** The refusal of this user's change, if one was stored at `since` (an ISO time) or later. */
  find(userId: string, changeId: string, since: string): Promise<StoredRefusal | undefined>;
  /**
   * Stores a refusal, unless one is stored for the change already (the same change sent twice at once: the
   * first stored wins): true when this one was stored. Refusals stored before `expiredBefore` are deleted
   * first, which also frees the change id of an expired one.
   */
  store(refusal: ChangeRefusal, expiredBefore: string): Promise<boolean>;
  /** Deletes the user's refusals (their account is being deleted). */
  deleteOf(userId: string): Promise<void>;
}
