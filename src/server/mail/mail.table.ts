import type { Generated } from 'kysely';
import type { EmailStatus } from './mail.storage.ts';

// The outbox's domain types live with its repository's interface; kept importable from here too.
export type { EmailAttachment, EmailParams, EmailStatus } from './mail.storage.ts';

export interface EmailOutboxTable {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** A JSON array of `EmailAttachment`, or null. */
  attachments: string | null;
  /** A JSON object of strings for services that fill in their own templates (EmailJS): `EmailParams`, or null. */
  template_params: string | null;
  dedupe_key: string | null;
  /** Whose personal data the e-mail holds besides its recipient's (migration 0009); deleted with their account. */
  about_user_id: string | null;
  status: Generated<EmailStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
