import { createHash } from 'node:crypto';
import { FieldValue, type CollectionReference, type DocumentReference } from 'firebase-admin/firestore';
import { atomically, readAll, type FirestoreContext } from '../storage/firestore/context.ts';
import { deleteFound, hasCode, notFound, query } from '../storage/firestore/queries.ts';
import { sentFirst } from './email-kinds.ts';
import type {
  ClaimedEmail,
  EmailAttachment,
  EmailParams,
  EmailStatus,
  NewEmail,
  OutboxRepository,
} from './mail.storage.ts';

/**
 * The outbox on Firestore (docs/firestore-layout.md): `emailOutbox/{id}`, the SQL row's fields in camelCase
 * (times as UTC ISO text, which sorts as time), plus `availableAt`: the later of `nextAttemptAt` and
 * `lockedUntil`, so that "due and held by no sender" is one range on one field (Firestore's queries take
 * one). An e-mail with a `dedupeKey` is named by the key's hash, so its key is unique as SQL's index keeps it.
 */
interface EmailDoc {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: EmailAttachment[] | null;
  params: EmailParams | null;
  dedupeKey: string | null;
  aboutUserId: string | null;
  status: EmailStatus;
  attempts: number;
  nextAttemptAt: string;
  lockedUntil: string | null;
  availableAt: string;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const keyedId = (key: string) => `key-${createHash('sha256').update(key).digest('hex')}`;

function toClaimed(id: string, doc: EmailDoc): ClaimedEmail {
  return {
    id,
    kind: doc.kind,
    to: doc.to,
    subject: doc.subject,
    text: doc.text,
    html: doc.html,
    ...(doc.attachments ? { attachments: doc.attachments } : {}),
    ...(doc.params ? { params: doc.params } : {}),
    attempts: doc.attempts,
  };
}

/** Oldest first, then by id: the queue's order on SQL. */
const byAge = (a: { id: string; createdAt: string }, b: { id: string; createdAt: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

const rank = (kind: string) => ((sentFirst as readonly string[]).includes(kind) ? 0 : 1);

/** The kinds someone waits for first, then oldest first: the queue's order on SQL. */
const inSendingOrder = (
  a: { id: string; kind: string; createdAt: string },
  b: { id: string; kind: string; createdAt: string },
) => rank(a.kind) - rank(b.kind) || byAge(a, b);

export function createOutboxFirestoreRepository(ctx: FirestoreContext): OutboxRepository {
  const outbox = ctx.db.collection('emailOutbox') as CollectionReference<EmailDoc>;

  /**
   * An update of an e-mail that may have been deleted meanwhile (the worker's, outside any transaction): like an
   * UPDATE finding no row, nothing.
   */
  async function updateIfThere(ref: DocumentReference<EmailDoc>, changes: Record<string, unknown>) {
    if (ctx.tx) {
      ctx.tx.update(ref, changes);
      return;
    }
    await ref.update(changes).catch((error: unknown) => {
      if (!hasCode(error, notFound)) throw error;
    });
  }

  async function enqueue(email: NewEmail, now: Date) {
    const iso = now.toISOString();
    const params = { ...(email.toName === undefined ? {} : { to_name: email.toName }), ...email.params };
    const doc: EmailDoc = {
      kind: email.kind,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      attachments: email.attachments?.length ? email.attachments : null,
      params: Object.keys(params).length ? params : null,
      dedupeKey: email.dedupeKey ?? null,
      aboutUserId: email.aboutUserId ?? null,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: iso,
      lockedUntil: null,
      availableAt: iso,
      lastError: null,
      createdAt: iso,
      sentAt: null,
    };
    if (email.dedupeKey === undefined) {
      const ref = outbox.doc(crypto.randomUUID());
      if (ctx.tx) ctx.tx.create(ref, doc);
      else await ref.create(doc);
      return;
    }
    const ref = outbox.doc(keyedId(email.dedupeKey));
    if (!ctx.tx) {
      // Read and create in one transaction: of two queueing one key at once, the second finds the first's.
      await atomically(ctx, async ({ tx }) => {
        if (!(await tx.get(ref)).exists) tx.create(ref, doc);
      });
      return;
    }
    // In a usecase's transaction this is usually its last step, after its writes, where Firestore allows no
    // read: the key is looked up outside it. The transaction's own guard (a reminder claimed at its booking's
    // version) keeps two of them from getting here at once; if two did, the second's commit would fail (the
    // `create` finds the document), never send twice.
    if (!(await ref.get()).exists) ctx.tx.create(ref, doc);
  }

  return {
    enqueue,
    async enqueueAll(emails) {
      // Each as `enqueue` does (a keyed one is looked up first): one after another.
      for (const { email, now } of emails) await enqueue(email, now);
    },

    async findDue(now, limit) {
      // Only the order's fields and the address are fetched, not the bodies; the pending backlog is sorted here,
      // since Firestore orders a range query by its range field first.
      const iso = now.toISOString();
      const due = await query(
        ctx,
        outbox.where('status', '==', 'pending').where('availableAt', '<=', iso).select('createdAt', 'kind', 'to'),
      );
      return due.docs
        .map((d) => ({
          id: d.id,
          to: d.get('to') as string,
          kind: d.get('kind') as string,
          createdAt: d.get('createdAt') as string,
        }))
        .sort(inSendingOrder)
        .slice(0, limit)
        .map(({ id, to }) => ({ id, to }));
    },

    claim: (id, now, lockMs) =>
      // Read, compare and write in one transaction: of senders racing for it, in any process, the others' run
      // again and find it held.
      atomically(ctx, async ({ tx }) => {
        const ref = outbox.doc(id);
        const doc = (await tx.get(ref)).data();
        const iso = now.toISOString();
        if (!doc || doc.status !== 'pending' || (doc.lockedUntil !== null && doc.lockedUntil >= iso)) return undefined;
        const lockedUntil = new Date(now.getTime() + lockMs).toISOString();
        tx.update(ref, {
          lockedUntil,
          availableAt: lockedUntil > doc.nextAttemptAt ? lockedUntil : doc.nextAttemptAt,
        });
        return toClaimed(id, doc);
      }),

    markSent: (id, now) =>
      updateIfThere(outbox.doc(id), {
        status: 'sent',
        sentAt: now.toISOString(),
        lockedUntil: null,
        attempts: FieldValue.increment(1),
      }),

    markAttemptFailed(id, args) {
      const next = (args.nextAttemptAt ?? new Date()).toISOString();
      return updateIfThere(outbox.doc(id), {
        status: args.nextAttemptAt ? 'pending' : 'failed',
        nextAttemptAt: next,
        availableAt: next,
        lastError: args.error.slice(0, 1000),
        lockedUntil: null,
        attempts: FieldValue.increment(1),
      });
    },

    deleteFinishedBefore: (before) =>
      deleteFound(ctx, outbox.where('status', 'in', ['sent', 'failed']).where('createdAt', '<', before.toISOString())),

    async queuedSince(to, kind, since) {
      // A person's few e-mails, checked here: no composite index for `to ==`, `kind ==` and a range.
      const iso = since.toISOString();
      const found = await query(ctx, outbox.where('to', '==', to).select('kind', 'createdAt'));
      return found.docs.some((d) => d.get('kind') === kind && (d.get('createdAt') as string) > iso);
    },

    async statusesOf(dedupeKeys) {
      const keys = [...new Set(dedupeKeys)];
      const docs = await readAll(
        ctx,
        keys.map((key) => outbox.doc(keyedId(key))),
      );
      const statuses = new Map<string, { status: EmailStatus; lastError: string | null }>();
      docs.forEach((doc, i) => {
        const data = doc.data();
        if (data) statuses.set(keys[i]!, { status: data.status, lastError: data.lastError ?? null });
      });
      return statuses;
    },

    async listTo(address) {
      const found = await query(ctx, outbox.where('to', '==', address));
      return found.docs
        .map((d) => ({ id: d.id, ...d.data() }))
        .sort(byAge)
        .map((d) => ({ kind: d.kind, subject: d.subject, status: d.status, createdAt: d.createdAt, sentAt: d.sentAt }));
    },

    async deleteOf(user) {
      await deleteFound(ctx, outbox.where('to', '==', user.email), outbox.where('aboutUserId', '==', user.id));
    },
  };
}
