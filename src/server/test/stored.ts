import type { Stamp } from '../../common/positions.ts';
import type { Services } from '../server.ts';

/**
 * Everything stored in a table (SQL) or the collection of the same name (Firestore), as the engine holds it, in
 * a stable order: what a test compares before and after a refused request ("nothing changed"), whichever
 * engine the test server runs on.
 */
export async function storedRows(
  services: Services,
  name: 'modules' | 'enrolments' | 'users' | 'bookings' | 'testimonials',
): Promise<Record<string, unknown>[]> {
  if (services.firestore) {
    const docs = (await services.firestore.collection(name).get()).docs;
    return docs.map((d) => ({ id: d.id, ...d.data() })).sort((a, b) => a.id.localeCompare(b.id));
  }
  return services.db.selectFrom(name).selectAll().orderBy('id').execute();
}

/** An e-mail in the outbox, in one shape whichever engine holds it: what the mail tests look at. UTC ISO times. */
export interface StoredEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The attachments as JSON text, or null. */
  attachments: string | null;
  aboutUserId: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const iso = (value: unknown) => (value === null ? null : new Date(value as string).toISOString());

/**
 * The outbox's e-mails to these addresses, or all of them (the delivery log's state, attempts and leases),
 * oldest first.
 */
export async function storedEmails(services: Services, to?: readonly string[]): Promise<StoredEmail[]> {
  let emails: StoredEmail[];
  if (services.firestore) {
    const outbox = services.firestore.collection('emailOutbox');
    const docs = (await (to ? outbox.where('to', 'in', to) : outbox).get()).docs;
    emails = docs.map((d) => {
      const e = d.data();
      return {
        id: d.id,
        kind: e.kind,
        to: e.to,
        subject: e.subject,
        text: e.text,
        html: e.html,
        attachments: e.attachments ? JSON.stringify(e.attachments) : null,
        aboutUserId: e.aboutUserId,
        status: e.status,
        attempts: e.attempts,
        nextAttemptAt: e.nextAttemptAt,
        lockedUntil: e.lockedUntil,
        lastError: e.lastError,
        createdAt: e.createdAt,
        sentAt: e.sentAt,
      };
    });
  } else {
    let outbox = services.db.selectFrom('email_outbox').selectAll();
    if (to) outbox = outbox.where('to_address', 'in', to);
    const rows = await outbox.execute();
    emails = rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      attachments: r.attachments,
      aboutUserId: r.about_user_id,
      status: r.status,
      attempts: Number(r.attempts),
      nextAttemptAt: iso(r.next_attempt_at)!,
      lockedUntil: iso(r.locked_until),
      lastError: r.last_error,
      createdAt: iso(r.created_at)!,
      sentAt: iso(r.sent_at),
    }));
  }
  return emails.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/**
 * Writes e-mails into the outbox as they are, in a state the repository only reaches over time (sent long
 * ago, say): no worker can pick one up between its steps. Bodies are placeholders.
 */
export async function storeEmails(
  services: Services,
  emails: readonly Omit<StoredEmail, 'subject' | 'text' | 'html' | 'attachments' | 'aboutUserId'>[],
) {
  if (services.firestore) {
    const batch = services.firestore.batch();
    for (const e of emails) {
      const availableAt = e.lockedUntil && e.lockedUntil > e.nextAttemptAt ? e.lockedUntil : e.nextAttemptAt;
      batch.create(services.firestore.collection('emailOutbox').doc(e.id), {
        kind: e.kind,
        to: e.to,
        subject: 'Log',
        text: 'x',
        html: '<p>x</p>',
        attachments: null,
        params: null,
        dedupeKey: null,
        aboutUserId: null,
        status: e.status,
        attempts: e.attempts,
        nextAttemptAt: e.nextAttemptAt,
        lockedUntil: e.lockedUntil,
        availableAt,
        lastError: e.lastError,
        createdAt: e.createdAt,
        sentAt: e.sentAt,
      });
    }
    await batch.commit();
    return;
  }
  await services.db
    .insertInto('email_outbox')
    .values(
      emails.map((e) => ({
        id: e.id,
        kind: e.kind,
        to_address: e.to,
        subject: 'Log',
        text_body: 'x',
        html_body: '<p>x</p>',
        status: e.status,
        attempts: e.attempts,
        next_attempt_at: e.nextAttemptAt,
        locked_until: e.lockedUntil,
        last_error: e.lastError,
        created_at: e.createdAt,
        sent_at: e.sentAt,
      })),
    )
    .execute();
}

/**
 * The stamp of a question's or booking's change that an answer reported as `version`: SQL has one counter
 * (shard 0); on Firestore the shard is the one its document holds now (the change's own, when nothing
 * changed it since).
 */
export async function stampOf(
  services: Services,
  collection: 'questions' | 'bookings',
  id: string,
  version: number,
): Promise<Stamp> {
  if (!services.firestore) return { shard: 0, version };
  const doc = await services.firestore.collection(collection).doc(id).get();
  return { shard: doc.get('versionShard') as number, version };
}

/** The user's stored refusals of changes queued offline (http/offline-changes.ts), by change id. */
export async function storedRefusals(services: Services, userId: string) {
  const refusals = services.firestore
    ? (await services.firestore.collection('changeRefusals').where('userId', '==', userId).get()).docs.map((d) => ({
        changeId: d.get('changeId') as string,
        status: d.get('status') as number,
      }))
    : (
        await services.db
          .selectFrom('change_refusals')
          .select(['change_id', 'status'])
          .where('user_id', '=', userId)
          .execute()
      ).map((r) => ({ changeId: r.change_id, status: Number(r.status) }));
  return refusals.sort((a, b) => a.changeId.localeCompare(b.changeId));
}

/** The values of the votes stored on a question (1 or -1), whoever cast them. */
export async function storedVoteValues(services: Services, questionId: string): Promise<number[]> {
  if (services.firestore) {
    const votes = services.firestore.collection('questionVotes').where('questionId', '==', questionId);
    return (await votes.get()).docs.map((d) => d.get('value') as number);
  }
  const rows = await services.db
    .selectFrom('question_votes')
    .select('value')
    .where('question_id', '=', questionId)
    .execute();
  return rows.map((r) => Number(r.value));
}

/**
 * Every booking as stored, and on SQL their histories' rows: what a test compares before and after a refused
 * request. On Firestore a booking's history is a list inside its document (docs/firestore-layout.md).
 */
export async function storedBookings(services: Services) {
  if (services.firestore) return { bookings: await storedRows(services, 'bookings'), changes: [] };
  return {
    bookings: await storedRows(services, 'bookings'),
    changes: await services.db.selectFrom('booking_changes').selectAll().orderBy('id').execute(),
  };
}

/** Moves the e-mails queued to an address `ms` into the past (a cooldown that has run out). */
export async function backdateEmails(services: Services, to: string, ms: number) {
  const earlier = (time: string) => new Date(Date.parse(time) - ms).toISOString();
  if (services.firestore) {
    const docs = (await services.firestore.collection('emailOutbox').where('to', '==', to).get()).docs;
    await Promise.all(docs.map((d) => d.ref.update({ createdAt: earlier(d.get('createdAt') as string) })));
    return;
  }
  for (const e of await storedEmails(services, [to]))
    await services.db
      .updateTable('email_outbox')
      .set({ created_at: earlier(e.createdAt) })
      .where('id', '=', e.id)
      .execute();
}

/** Sets the expiry of a user's sessions (better-auth's `expires_at`), as time passing would bring it nearer. */
export async function setSessionExpiry(services: Services, userId: string, expiresAt: Date): Promise<void> {
  if (services.firestore) {
    const found = await services.firestore.collection('sessions').where('user_id', '==', userId).get();
    await Promise.all(found.docs.map((doc) => doc.ref.update({ expires_at: expiresAt })));
    return;
  }
  await services.db.updateTable('sessions').set({ expires_at: expiresAt }).where('user_id', '=', userId).execute();
}

/**
 * A user's sessions or logins as better-auth stores them (the same snake_case fields on both engines,
 * docs/firestore-layout.md): for checking that no secret of theirs leaks, or that they are gone.
 */
export async function storedAuthRecords(
  services: Services,
  name: 'sessions' | 'accounts',
  userId: string,
): Promise<Record<string, unknown>[]> {
  if (services.firestore)
    return (await services.firestore.collection(name).where('user_id', '==', userId).get()).docs.map((d) => d.data());
  return services.db.selectFrom(name).selectAll().where('user_id', '=', userId).execute();
}
