import { z } from 'zod';
import { nameSchema } from '../../../common/auth.schemas.ts';
import { categories, type Category } from '../../../common/roles.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole } from '../../auth/auth.session.ts';
import type { Auth } from '../../auth/auth.ts';
import { withTransaction, type Uses } from '../../deps.ts';
import { accessChanged } from '../../events/events.ts';
import { createError } from '../../http/errors.ts';

export const addStaffInputSchema = z
  .object({
    email: z.string().trim().toLowerCase().pipe(z.email('Give a valid e-mail address.')),
    role: z.enum(['admin', 'tutor']),
    categories: z.array(z.enum(categories, `Category must be one of: ${categories.join(', ')}.`)).default([]),
    name: nameSchema.optional(),
  })
  .refine((v) => v.role !== 'tutor' || v.categories.length > 0, {
    message: 'A tutor needs at least one --category.',
    path: ['categories'],
  })
  .refine((v) => v.role !== 'admin' || v.categories.length === 0, {
    message: 'Categories are for tutors only.',
    path: ['categories'],
  });
export type AddStaffInput = z.input<typeof addStaffInputSchema>;

/** What `addStaff` uses; better-auth (`auth`) sends the invitation (its password-reset link). */
export type StaffDeps = Uses<'accounts', 'storage' | 'events' | 'clock' | 'config'> & { auth: Auth };

/**
 * - `promoted`: a verified account got the role and keeps its password.
 * - `invited`: a new account, with an e-mail to set a password.
 * - `reclaimed`: an account whose address was never verified lost its sign-up password and sessions, and its
 *   owner gets the invitation (docs/decisions/0003): whoever signed up with a future admin's address must not
 *   become admin when the real owner clicks the verification link.
 */
export type AddStaffOutcome = 'promoted' | 'invited' | 'reclaimed';

/**
 * Promotes an existing account, or creates one and e-mails an invitation to set a password. The account's
 * changes are one transaction; the invitation is asked of better-auth after the commit (it writes through the
 * outer connection, which on SQLite would wait for the transaction forever).
 */
export async function addStaff(
  deps: StaffDeps,
  input: AddStaffInput,
): Promise<{ outcome: AddStaffOutcome; email: string }> {
  const parsed = addStaffInputSchema.safeParse(input);
  if (!parsed.success) {
    throw createError({
      code: 'staff.invalid',
      message: parsed.error.issues.map((i) => i.message).join(' '),
      status: 400,
    });
  }
  const { email, role, name } = parsed.data;
  const cats = [...new Set(parsed.data.categories)] as Category[];
  const now = deps.clock.now();
  const defaultName = name ?? email.split('@')[0]!;
  const outcome = await withTransaction(deps, async (tx): Promise<AddStaffOutcome> => {
    const { accounts } = tx.repos;
    // The serialisation point: two changes of admins at once run one after the other (lockAdmins).
    const admins = await accounts.lockAdmins();
    const existing = await accounts.findByEmail(email);
    // Making the only admin a tutor would leave nobody to run the catalogue.
    if (existing?.role === 'admin' && role !== 'admin') requireAnotherAdmin(email, admins);
    // Open event streams of the account hear by its old role until they are checked again: tell every process.
    if (existing) tx.events.publish(accessChanged([existing.id]));
    if (existing?.emailVerified) {
      await accounts.setRole(existing.id, role, cats, now);
      return 'promoted';
    }
    if (existing) {
      await accounts.reclaimUnproven(existing.id, defaultName, now);
      await accounts.setRole(existing.id, role, cats, now);
      return 'reclaimed';
    }
    const id = crypto.randomUUID();
    await accounts.insertInvited({ id, email, name: defaultName, role: 'student' }, now);
    await accounts.setRole(id, role, cats, now);
    return 'invited';
  });
  if (outcome !== 'promoted') {
    await deps.auth.api.requestPasswordReset({
      body: { email, redirectTo: `${deps.config.publicUrl}/change-password` },
    });
  }
  return { outcome, email };
}

/** `removed`: a staff member is a student again. `already-student`: there was nothing to remove. */
export type RemoveStaffOutcome = 'removed' | 'already-student';

/**
 * Makes a staff member a student again; their account stays. The only admin cannot be removed: nobody could
 * then manage the catalogue or make another admin but the operator, who may not notice until it is needed.
 */
export async function removeStaff(
  deps: Uses<'accounts', 'storage' | 'events' | 'clock'>,
  rawEmail: string,
): Promise<RemoveStaffOutcome> {
  const email = rawEmail.trim().toLowerCase();
  return withTransaction(deps, async (tx) => {
    const { accounts } = tx.repos;
    const admins = await accounts.lockAdmins();
    const user = await accounts.findByEmail(email);
    if (!user)
      throw createError({ code: 'staff.not_found', message: `No account with the e-mail ${email}.`, status: 404 });
    if (user.role === 'student') return 'already-student';
    if (user.role === 'admin') requireAnotherAdmin(email, admins);
    await accounts.setRole(user.id, 'student', [], deps.clock.now());
    // A removed tutor's open streams must stop hearing the category's bookings, in every process.
    tx.events.publish(accessChanged([user.id]));
    return 'removed';
  });
}

function requireAnotherAdmin(email: string, admins: number) {
  if (admins > 1) return;
  throw createError({
    code: 'staff.last_admin',
    message: `${email} is the only admin, so they stay admin. Make someone else admin first (staff add <email> --role admin).`,
    status: 409,
  });
}

export const listStaffMembers = ({ repos }: Uses<'accounts'>) => repos.accounts.listStaff();

/**
 * The admin's count of accounts from the old site that have not logged in with their old password yet
 * (`import firebase`, decision 0023): a number that stays high after the move-in tells of hash parameters
 * that refuse them, or of people to remind. Accounts that sign in with Google only are not in it.
 */
export async function countImportedAccountsWaiting(
  { repos }: Uses<'accounts'>,
  me: Me | undefined,
): Promise<{ waitingForFirstLogin: number }> {
  requireRole(me, 'admin');
  return { waitingForFirstLogin: await repos.accounts.countImportedPasswordsUnused() };
}
