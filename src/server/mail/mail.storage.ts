import type { EmailKind } from './email-kinds.ts';

/**
 * A file sent with an e-mail (a calendar invitation, a receipt's PDF), stored with the e-mail: text, or bytes in
 * base64 (`encoding`), as nodemailer takes them.
 */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
  encoding?: 'base64';
}

/**
 * The values an e-mail's template may use beyond its rendered bodies: `to_name`, and the old site's own
 * parameters where it had them (a booking's `student_name`, `module_name`, `date`, `timeslot1`, …).
 */
export type EmailParams = Record<string, string>;

export type EmailStatus = 'pending' | 'sent' | 'failed';

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
  /** The old site's template values for this kind of e-mail (`EmailParams`). */
  params?: EmailParams;
  /** The user whose data it holds, when not (only) the recipient's: it goes when their account is deleted. */
  aboutUserId?: string;
}

/** A pending e-mail that is due: the worker sends one at a time to each address, in the order they are due. */
export interface DueEmail {
  id: string;
  to: string;
}

/** An e-mail a sender has claimed: what the transport needs, and how many attempts came before. */
export interface ClaimedEmail {
  id: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
  params?: EmailParams;
  attempts: number;
}

/** An e-mail in the delivery log, without its bodies (they hold one-time links). UTC ISO times. */
export interface EmailLogEntry {
  kind: string;
  subject: string;
  status: EmailStatus;
  createdAt: string;
  sentAt: string | null;
}

/**
 * The mail outbox's storage (docs/decisions/0010 and 0026): e-mails queued with the change that causes them,
 * sent by the worker, kept for a while as the delivery log. Each engine implements it: mail.repository.ts on
 * SQL. Senders in several processes share it: `claim` is what makes each e-mail go once.
 */
export interface OutboxRepository {
  /** Queues an e-mail, due at `now` (its time in the queue's order); one whose `dedupeKey` is queued already is not added. */
  enqueue(email: NewEmail, now: Date): Promise<void>;
  /** Queues each e-mail as `enqueue` would, in one write where the engine can (a booking queues three or more). */
  enqueueAll(emails: readonly { email: NewEmail; now: Date }[]): Promise<void>;
  /**
   * Up to `limit` pending e-mails due at `now` that no sender holds: those of the kinds someone waits for
   * (`sentFirst`, email-kinds.ts) first, then oldest first.
   */
  findDue(now: Date, limit: number): Promise<DueEmail[]>;
  /**
   * Takes a pending e-mail for this sender for `lockMs` (a lease: a sender that dies lets it go again). Of
   * senders racing for it, in any process, one gets it; the others get undefined.
   */
  claim(id: string, now: Date, lockMs: number): Promise<ClaimedEmail | undefined>;
  /** Marks a claimed e-mail sent and lets it go. */
  markSent(id: string, now: Date): Promise<void>;
  /** Counts a failed attempt and lets the e-mail go: due again at `nextAttemptAt`, or failed for good without one. */
  markAttemptFailed(id: string, args: { error: string; nextAttemptAt: Date | undefined }): Promise<void>;
  /** The delivery log is kept for a limited time (Privacy Policy): sent and failed e-mails made before `before` go. */
  deleteFinishedBefore(before: Date): Promise<number>;
  /** Whether an e-mail of this kind was queued to the address after `since` (the verification e-mail's cooldown). */
  queuedSince(to: string, kind: string, since: Date): Promise<boolean>;
  /**
   * Where the e-mails queued with these `dedupeKey`s stand, by key (a key never queued is left out): what a
   * session's reminder check reads (bookings.reminder-check.ts).
   */
  statusesOf(dedupeKeys: readonly string[]): Promise<Map<string, { status: EmailStatus; lastError: string | null }>>;
  /** E-mails sent (or queued) to the address, oldest first: what and when, not the bodies. */
  listTo(address: string): Promise<EmailLogEntry[]>;
  /**
   * The e-mails that hold the user's data: those sent (or waiting) to their address, and those about them to
   * others (a booking's, to staff), whatever their status.
   */
  deleteOf(user: { id: string; email: string }): Promise<void>;
}
