import type { Generated } from 'kysely';

/** A file sent with an e-mail (a calendar invitation): text content, stored with the e-mail. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

/**
 * The values an e-mail's template may use beyond its rendered bodies: `to_name`, and the old site's own
 * parameters where it had them (a booking's `student_name`, `module_name`, `date`, `timeslot1`, …).
 */
export type EmailParams = Record<string, string>;

export type EmailStatus = 'pending' | 'sent' | 'failed';

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
