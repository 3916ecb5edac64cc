import type { Generated } from 'kysely';

export type EmailStatus = 'pending' | 'sent' | 'failed';

export interface EmailOutboxTable {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  dedupe_key: string | null;
  status: Generated<EmailStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}
