import type { Category, Role } from '../../common/roles.ts';
import type { Me } from '../../common/session.ts';

/** A person's account, as the product reads it (better-auth's user record, in the domain's words). */
export interface Account {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  role: Role;
  /** UTC ISO times. */
  createdAt: string;
  updatedAt: string;
}

/** A member of staff as the staff commands list them: the admins and the tutors with their categories. */
export interface StaffMember {
  email: string;
  name: string;
  role: Role;
  categories: Category[];
}

/** A way to log in (password, Google): which provider and since when; never the hash or tokens. */
export interface LoginMethod {
  providerId: string;
  createdAt: string;
  updatedAt: string;
}

export interface SessionRecord {
  createdAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
}

/** An account brought from the old Firebase site (import/firebase-import.ts), with its old id and time. */
export interface ImportedAccount {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  /** UTC ISO. */
  createdAt: string;
}

/** A way to log in the old site had: a password (its Firebase hash, checked at the first login) or Google. */
export interface ImportedLogin {
  providerId: 'credential' | 'google';
  /** The user's id for a password; Google's own user id for Google. */
  accountId: string;
  passwordHash: string | null;
}

/**
 * Accounts and what hangs off them (roles, tutor categories, logins, sessions, reset links): the one door to
 * authentication's storage for the rest of the server (docs/decisions/0026). better-auth itself reaches the
 * same records through its adapter.
 */
export interface AccountsRepository {
  findById(id: string): Promise<Account | undefined>;
  findByEmail(email: string): Promise<Account | undefined>;
  /** Names and roles of these people (authors on the board); those without an account are left out. */
  describe(ids: readonly string[]): Promise<Map<string, { name: string; role: Role }>>;
  /** The tutor's categories, sorted. */
  categoriesOf(userId: string): Promise<Category[]>;
  /** Who hears of a booking in a category: its tutors and every admin (for `null`, uncategorised: the admins). */
  staffOf(category: Category | null): Promise<Pick<Account, 'id' | 'name' | 'email' | 'role'>[]>;
  /** Every admin and tutor, by role then e-mail. */
  listStaff(): Promise<StaffMember[]>;
  loginMethods(userId: string): Promise<LoginMethod[]>;
  sessionsOf(userId: string): Promise<SessionRecord[]>;
  /** A staff member's account made by invitation: verified, since the invitation link proves the address. */
  insertInvited(user: { id: string; name: string; email: string; role: Role }, now: Date): Promise<void>;
  /**
   * An account whose address was never proven becomes like a new invitation: its password, sessions and
   * reset links go, the name is the one given, and the address counts as verified (only the invitation link
   * or Google, both proofs of it, can open it now).
   */
  reclaimUnproven(userId: string, name: string, now: Date): Promise<void>;
  /**
   * How many admins there are, held until the transaction ends: the first step of a change that may take the
   * admin role away, so two such changes at once run one after the other and cannot leave no admin.
   */
  lockAdmins(): Promise<number>;
  /** Sets the role and replaces the tutor categories. */
  setRole(userId: string, role: Role, categories: readonly Category[], now: Date): Promise<void>;
  rename(userId: string, name: string, now: Date): Promise<void>;
  /** Deletes the account with its sessions, logins, tutor categories and reset links. */
  delete(userId: string): Promise<void>;
  /** The stored hash of the user's password login, null without one (the importer compares it). */
  passwordHashOf(userId: string): Promise<string | null>;
  /**
   * How many password logins still hold the Firebase hash they were imported with: accounts from the old site
   * whose owner has not logged in with a password (nor reset it) since, for the first good login replaces it.
   */
  countImportedPasswordsUnused(): Promise<number>;
  /** An account from the old site, a student, with its ways to log in; the address was looked up first. */
  insertImported(account: ImportedAccount, logins: readonly ImportedLogin[], now: Date): Promise<void>;
  /**
   * An account signed up with here and never verified goes to the person who had its address on the old site:
   * its logins and sessions go, the name and verified flag become the old site's, and `logins` come in.
   */
  handOverToImported(
    userId: string,
    old: Pick<ImportedAccount, 'name' | 'emailVerified'>,
    logins: readonly ImportedLogin[],
    now: Date,
  ): Promise<void>;
  /** Google's id for the user's Google login, null without one (the importer compares it). */
  googleIdOf(userId: string): Promise<string | null>;
  /**
   * An imported account brought up to date with the old site (a later run of the import): the name and
   * verified flag when given; `logins`, when given, replace its password and Google logins; `endSessions`
   * signs it out everywhere (disabled on the old site).
   */
  updateImported(
    userId: string,
    changes: {
      name?: string;
      emailVerified?: boolean;
      logins?: readonly ImportedLogin[];
      endSessions?: boolean;
    },
    now: Date,
  ): Promise<void>;
  /** The user as a session names them (role, and a tutor's categories): read on every signed-in request. */
  findSignedIn(userId: string): Promise<Me | undefined>;
  /**
   * The session a cookie's token names, with its user as findSignedIn reads them: what every signed-in request
   * reads (auth.session.ts). Undefined when there is no such session or its account is gone.
   */
  findSignedInBySession(token: string): Promise<{ me: Me; expiresAt: Date } | undefined>;
}
