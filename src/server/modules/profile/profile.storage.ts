/**
 * An enrolment as stored: the module it was made in, with the name that module had then (it stays readable
 * once the module is deleted, when `moduleId` becomes null). UTC ISO time.
 */
export interface StoredEnrolment {
  id: string;
  userId: string;
  moduleId: string | null;
  moduleName: string;
  createdAt: string;
}

/**
 * The profile's own storage, the users' enrolments, in the profile's words (docs/decisions/0026). Each engine
 * implements it: profile.repository.ts on SQL. The account itself is the accounts repository's, the e-mails
 * the outbox's, the module the catalogue's.
 */
export interface ProfileRepository {
  /** The user's enrolments, oldest first (same time: by id). */
  enrolmentsOf(userId: string): Promise<StoredEnrolment[]>;
  /**
   * Stores a new enrolment. A second one of the user in the same module (a double click) is refused with
   * `createAlreadyEnrolledError`, and one in a module deleted meanwhile with `createEnrolModuleNotFoundError`,
   * by whichever write loses the race.
   */
  insertEnrolment(enrolment: StoredEnrolment & { moduleId: string }): Promise<void>;
  /**
   * Stores an enrolment brought from the old site (the Firebase import), which names its module: one the
   * catalogue lacks has no `moduleId` and stays readable by its name. The importer looked for it first.
   */
  insertImportedEnrolment(enrolment: StoredEnrolment): Promise<void>;
  findEnrolment(id: string): Promise<StoredEnrolment | undefined>;
  /** Deletes the enrolment if it is the user's. */
  deleteEnrolment(id: string, userId: string): Promise<void>;
  /** Deletes every enrolment of the user (their account is being deleted). */
  deleteEnrolmentsOf(userId: string): Promise<void>;
}
