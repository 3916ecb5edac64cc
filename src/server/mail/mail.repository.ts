import type { CompiledQuery, DialectAdapter, Insertable, Selectable } from 'kysely';
import type { Db } from '../db/create-db.ts';
import type { ClaimedEmail, EmailAttachment, EmailParams, NewEmail, OutboxRepository } from './mail.storage.ts';
import type { EmailOutboxTable } from './mail.table.ts';
import { boundLimit } from '../db/bound-limit.ts';
import { sentFirst } from './email-kinds.ts';
import { timeOrderedId } from '../time-ordered-id.ts';

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

/** Every column a queued e-mail is written with (the others take their defaults), in the order of its values. */
const columns = [
  'id',
  'kind',
  'to_address',
  'subject',
  'text_body',
  'html_body',
  'attachments',
  'template_params',
  'dedupe_key',
  'about_user_id',
  'next_attempt_at',
  'created_at',
] as const satisfies readonly (keyof QueuedRow)[];

// Every column of QueuedRow is listed: one added to the table and not here fails the type check.
true satisfies [Exclude<keyof QueuedRow, (typeof columns)[number]>] extends [never] ? true : never;

/** A row's values, in the order of `columns`. */
type ValuesOf<Columns extends readonly (keyof QueuedRow)[]> = {
  [I in keyof Columns]: Columns[I] extends keyof QueuedRow ? QueuedRow[Columns[I]] : never;
};
type RowValues = ValuesOf<typeof columns>;

/**
 * The insert of `count` e-mails in one statement (an e-mail sent once, by its `dedupe_key`, is left as it is),
 * built and compiled once per dialect and count, whose parameters are the rows' values one after another.
 * Building it with Kysely at each request was about 7 % of `POST /api/bookings`, and naming each of its 36
 * arguments another 3 % (issue 22).
 */
function insertOf(db: Db, count: number): CompiledQuery {
  const adapter = db.getExecutor().adapter;
  let byCount = inserts.get(adapter);
  if (!byCount) inserts.set(adapter, (byCount = new Map()));
  let insert = byCount.get(count);
  if (!insert) {
    // Each value is its place among the parameters, so the compiled order can be checked.
    const place = (row: number, column: number) => row * columns.length + column;
    const rows = Array.from(
      { length: count },
      (_, row) => Object.fromEntries(columns.map((column, i) => [column, place(row, i)])) as unknown as QueuedRow,
    );
    insert = db
      .insertInto('email_outbox')
      .values(rows)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .compile();
    if (insert.parameters.some((value, i) => value !== i))
      throw new Error('email_outbox insert: parameters out of order');
    byCount.set(count, insert);
  }
  return insert;
}
const inserts = new WeakMap<DialectAdapter, Map<number, CompiledQuery>>();

/**
 * The outbox on SQLite and PostgreSQL (`email_outbox`). Made on a transaction, `enqueue` writes the e-mail
 * together with the change that causes it.
 */
export function createOutboxRepository(db: Db): OutboxRepository {
  async function enqueueAll(emails: readonly { email: NewEmail; now: Date }[]) {
    for (let start = 0; start < emails.length; start += maxRowsPerInsert) {
      const rows = emails.slice(start, start + maxRowsPerInsert);
      const parameters = rows.flatMap(({ email, now }): RowValues => [
        // Time-ordered (UUID v7): each new key goes at the end of the primary key's index, not on a random page
        // of it. With random ones, a commit of 18 e-mails took about twice as long (744 against 366 µs, issue 22).
        timeOrderedId(),
        email.kind,
        email.to,
        email.subject,
        email.text,
        email.html,
        email.attachments?.length ? JSON.stringify(email.attachments) : null,
        templateParams(email),
        email.dedupeKey ?? null,
        email.aboutUserId ?? null,
        now.toISOString(),
        now.toISOString(),
      ]);
      await db.executeQuery({ ...insertOf(db, rows.length), parameters });
    }
  }

  return {
    enqueue: (email, now) => enqueueAll([{ email, now }]),
    enqueueAll,

    async findDue(now, limit) {
      const iso = now.toISOString();
      const rows = await db
        .selectFrom('email_outbox')
        .select(['id', 'to_address'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', iso)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso)]))
        // The due rows are few (the index on status and time finds them) and were sorted anyway: the kind first
        // costs no more.
        .orderBy((eb) =>
          eb
            .case()
            .when('kind', 'in', [...sentFirst])
            .then(eb.lit(0))
            .else(eb.lit(1))
            .end(),
        )
        .orderBy('created_at')
        .orderBy('id')
        .limit(boundLimit(limit))
        .execute();
      return rows.map((r) => ({ id: r.id, to: r.to_address }));
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

    async statusesOf(dedupeKeys) {
      if (dedupeKeys.length === 0) return new Map();
      const rows = await db
        .selectFrom('email_outbox')
        .select(['dedupe_key', 'status', 'last_error'])
        .where('dedupe_key', 'in', [...dedupeKeys])
        .execute();
      return new Map(rows.map((r) => [r.dedupe_key!, { status: r.status, lastError: r.last_error }]));
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
