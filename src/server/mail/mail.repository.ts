import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { EmailKind } from './email-kinds.ts';
import type { EmailAttachment, EmailParams } from './mail.table.ts';

type Executor = Kysely<Database>;

export interface NewEmail {
  kind: EmailKind;
  to: string;
  /** The recipient's name, for templates that greet them (EmailJS's `to_name`). */
  toName?: string;
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
  /** An e-mail with a key already in the outbox is not added again. */
  dedupeKey?: string;
  /** The old site's template values for this kind of e-mail (mail.table.ts `EmailParams`). */
  params?: EmailParams;
  /** The user whose data it holds, when not (only) the recipient's: it goes when their account is deleted. */
  aboutUserId?: string;
}

/** Pass a transaction as `db` to write the e-mail together with the change that causes it. */
export async function insertEmail(db: Executor, email: NewEmail, now: Date): Promise<void> {
  await db
    .insertInto('email_outbox')
    .values({
      id: crypto.randomUUID(),
      kind: email.kind,
      to_address: email.to,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html,
      attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
      template_params: templateParams(email),
      dedupe_key: email.dedupeKey ?? null,
      about_user_id: email.aboutUserId ?? null,
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

function templateParams(email: NewEmail): string | null {
  const params = { ...(email.toName === undefined ? {} : { to_name: email.toName }), ...email.params };
  return Object.keys(params).length ? JSON.stringify(params) : null;
}

export async function findDueEmailIds(db: Executor, now: Date, limit: number): Promise<string[]> {
  const iso = now.toISOString();
  const rows = await db
    .selectFrom('email_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', iso)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Takes the row for one sender; another process that raced for it gets `undefined`. */
export async function claimEmail(db: Executor, id: string, now: Date, lockMs: number) {
  const iso = now.toISOString();
  const result = await db
    .updateTable('email_outbox')
    .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function markEmailSent(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .updateTable('email_outbox')
    .set((eb) => ({ status: 'sent', sent_at: now.toISOString(), locked_until: null, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function markEmailAttemptFailed(
  db: Executor,
  id: string,
  args: { error: string; nextAttemptAt: Date | undefined },
): Promise<void> {
  await db
    .updateTable('email_outbox')
    .set((eb) => ({
      status: args.nextAttemptAt ? 'pending' : 'failed',
      next_attempt_at: (args.nextAttemptAt ?? new Date()).toISOString(),
      last_error: args.error.slice(0, 1000),
      locked_until: null,
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

/** The delivery log is kept for a limited time (Privacy Policy): sent and failed e-mails older than `before` go. */
export async function deleteFinishedEmailsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('email_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
