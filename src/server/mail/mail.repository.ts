import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/create-db.ts';
import type { ClaimedEmail, EmailAttachment, EmailParams, NewEmail, OutboxRepository } from './mail.storage.ts';
import type { EmailOutboxTable } from './mail.table.ts';
import { boundLimit } from '../db/bound-limit.ts';
import { preparedQuery } from '../db/prepared-query.ts';

// Kept importable from here while the features that queue e-mail move to mail.storage.ts (issue 21).
export type { NewEmail } from './mail.storage.ts';

function templateParams(email: NewEmail): string | null {
  const params = { ...(email.toName === undefined ? {} : { to_name: email.toName }), ...email.params };
  return Object.keys(params).length ? JSON.stringify(params) : null;
}

function toClaimed(row: Selectable<EmailOutboxTable>): ClaimedEmail {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    ...(row.attachments ? { attachments: JSON.parse(row.attachments) as EmailAttachment[] } : {}),
    ...(row.template_params ? { params: JSON.parse(row.template_params) as EmailParams } : {}),
    attempts: Number(row.attempts),
  };
}

/** Times the database may hand back as Dates (PostgreSQL) or strings, as UTC ISO strings. */
const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

type QueuedRow = Omit<Insertable<EmailOutboxTable>, 'status' | 'attempts' | 'locked_until' | 'last_error' | 'sent_at'>;

/** A booking queues three or four e-mails; more go in statements of this many rows. */
const maxRowsPerInsert = 8;

const rowArgs = (row: QueuedRow, i: number) => Object.entries(row).map(([column, value]) => [`${i}.${column}`, value]);

/**
 * `count` e-mails in one statement (an e-mail sent once, by its `dedupe_key`, is left as it is), built and
 * compiled once per count: building a multi-row insert with Kysely at each request was about 7 % of
 * `POST /api/bookings` (issue 22). Its arguments are each row's columns as `<row>.<column>`.
 */
const insertRows = (count: number) => {
  let insert = insertsByCount.get(count);
  if (!insert) {
    const columns = Object.keys(sampleRow) as (keyof QueuedRow)[];
    insert = preparedQuery<Record<string, unknown>, never>((db, arg) =>
      db
        .insertInto('email_outbox')
        .values(
          Array.from(
            { length: count },
            (_, i) => Object.fromEntries(columns.map((column) => [column, arg(`${i}.${column}`)])) as QueuedRow,
          ),
        )
        .onConflict((oc) => oc.column('dedupe_key').doNothing()),
    );
    insertsByCount.set(count, insert);
  }
  return insert;
};
const insertsByCount = new Map<number, ReturnType<typeof preparedQuery<Record<string, unknown>, never>>>();

/** Every column a queued e-mail is written with (the others take their defaults). */
const sampleRow: Record<keyof QueuedRow, null> = {
  id: null,
  kind: null,
  to_address: null,
  subject: null,
  text_body: null,
  html_body: null,
  attachments: null,
  template_params: null,
  dedupe_key: null,
  about_user_id: null,
  next_attempt_at: null,
  created_at: null,
};

/**
 * The outbox on SQLite and PostgreSQL (`email_outbox`). Made on a transaction, `enqueue` writes the e-mail
 * together with the change that causes it.
 */
export function createOutboxRepository(db: Db): OutboxRepository {
  async function enqueueAll(emails: readonly { email: NewEmail; now: Date }[]) {
    for (let start = 0; start < emails.length; start += maxRowsPerInsert) {
      const rows = emails.slice(start, start + maxRowsPerInsert).map(({ email, now }) => ({
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
      }));
      await insertRows(rows.length)(db, Object.fromEntries(rows.flatMap((row, i) => rowArgs(row, i))));
    }
  }

  return {
    enqueue: (email, now) => enqueueAll([{ email, now }]),
    enqueueAll,

    async findDue(now, limit) {
      const iso = now.toISOString();
      const rows = await db
        .selectFrom('email_outbox')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', iso)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso)]))
        .orderBy('created_at')
        .orderBy('id')
        .limit(boundLimit(limit))
        .execute();
      return rows.map((r) => r.id);
    },

    async claim(id, now, lockMs) {
      // A conditional update: of the senders racing for the row, only one changes it.
      const iso = now.toISOString();
      const result = await db
        .updateTable('email_outbox')
        .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso)]))
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      const row = await db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toClaimed(row);
    },

    async markSent(id, now) {
      await db
        .updateTable('email_outbox')
        .set((eb) => ({
          status: 'sent',
          sent_at: now.toISOString(),
          locked_until: null,
          attempts: eb('attempts', '+', 1),
        }))
        .where('id', '=', id)
        .execute();
    },

    async markAttemptFailed(id, args) {
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
    },

    async deleteFinishedBefore(before) {
      const result = await db
        .deleteFrom('email_outbox')
        .where('status', 'in', ['sent', 'failed'])
        .where('created_at', '<', before.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async queuedSince(to, kind, since) {
      const row = await db
        .selectFrom('email_outbox')
        .select('id')
        .where('to_address', '=', to)
        .where('kind', '=', kind)
        .where('created_at', '>', since.toISOString())
        .executeTakeFirst();
      return row !== undefined;
    },

    async listTo(address) {
      const rows = await db
        .selectFrom('email_outbox')
        .select(['kind', 'subject', 'status', 'created_at', 'sent_at'])
        .where('to_address', '=', address)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        kind: r.kind,
        subject: r.subject,
        status: r.status,
        createdAt: r.created_at,
        sentAt: isoOrNull(r.sent_at),
      }));
    },

    async deleteOf(user) {
      await db
        .deleteFrom('email_outbox')
        .where((eb) => eb.or([eb('to_address', '=', user.email), eb('about_user_id', '=', user.id)]))
        .execute();
    },
  };
}
