import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { escapeHtml } from '../../common/escape-html.ts';
import type { EmailAttachment, EmailParams } from './mail.storage.ts';

export interface OutgoingEmail {
  id: string;
  /** What the e-mail is (`verification`, `booking-confirmed`, …): EmailJS picks its template by it. */
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
  /** `to_name` and the old site's template values (mail.storage.ts); SMTP and the folder ignore them. */
  params?: EmailParams;
}

/** How the worker may use a transport: at most `atOnce` sends at a time, their starts `minIntervalMs` apart. */
export interface SendPace {
  atOnce: number;
  minIntervalMs: number;
}

export interface MailTransport {
  readonly name: string;
  readonly pace: SendPace;
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/**
 * A few at once: a slow provider (or a send that hangs until its time-out) holds up one of them, not the queue.
 * nodemailer's pool keeps up to five SMTP connections, so four sends each have one.
 */
const sendsAtOnce = 4;

/** Real delivery through any SMTP provider (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Pooled: one connection carries many messages, instead of a new connection (and TLS handshake) for each.
  const transporter = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    name: 'smtp',
    pace: { atOnce: sendsAtOnce, minIntervalMs: 0 },
    async send(email) {
      await transporter.sendMail({ ...email, messageId: `<${email.id}@tutorbook>` });
    },
    close: () => transporter.close(),
  };
}

/**
 * Development default: each e-mail becomes one `.eml` file in the mail folder, and its links are logged
 * so a developer can click the verification link without a mail server.
 */
export function createFolderTransport(dir: string, log: (msg: string, links: string[]) => void): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    name: 'folder',
    pace: { atOnce: sendsAtOnce, minIntervalMs: 0 },
    async send(email) {
      const info = await transporter.sendMail({ ...email, messageId: `<${email.id}@tutorbook>` });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${email.id}.eml`);
      await writeFile(file, info.message as Buffer);
      log(`E-mail "${email.subject}" to ${email.to} written to ${file}`, email.text.match(/https?:\/\/\S+/g) ?? []);
    },
    close: () => transporter.close(),
  };
}

export interface EmailJsSettings {
  /** `https://api.emailjs.com` unless a test points it at a stand-in. */
  apiUrl: string;
  serviceId: string;
  /** The template for every kind of e-mail without one of its own in `templates`. */
  templateId: string;
  publicKey: string;
  privateKey: string;
  /** A kind of e-mail → its own template (`EMAILJS_TEMPLATES`). */
  templates: Record<string, string>;
  /** How long a send may take before it is given up: `emailJsTimeoutMs` unless a test says otherwise. */
  timeoutMs?: number;
}

/**
 * EmailJS answers in about a second. A send not answered in 10 s is given up, so that a hung connection holds
 * up one of the worker's four sends for 10 s, not the queue for 30 (20 e-mails: 50 s at worst, not 10 minutes);
 * it stays well under the worker's 60 s hold on the e-mail, so no other process sends it meanwhile. EmailJS
 * may still send an e-mail whose answer came too late: the retry then sends it again (docs/email.md).
 */
export const emailJsTimeoutMs = 10_000;

/**
 * "Rate Limit: 1 request per second" (https://www.emailjs.com/docs/rest-api/send/): a request sooner is refused.
 * A tenth more, for the way there, which is not the same for every request.
 */
export const emailJsMinIntervalMs = 1_100;

/**
 * The HTML copy of a template value (`concepts_html`): escaped, its lines kept as `<br>`. EmailJS escapes a value
 * in `{{value}}` and inserts it as it is in `{{{value}}}` (https://www.emailjs.com/docs/user-guide/dynamic-variables-templates/):
 * the values carry the users' own text (names, a custom subject, concepts) for `{{…}}`, and these copies, for a
 * template that wants `{{{…}}}`, can hold no markup of the users'.
 */
const asHtml = (text: string) => escapeHtml(text).replace(/\n/g, '<br>');

/** The template's values: each with its HTML copy (`message`'s is the whole e-mail, `message_html`). */
function templateParams(email: OutgoingEmail): Record<string, string> {
  const values: Record<string, string> = {
    ...email.params,
    to_email: email.to,
    to_name: email.params?.to_name ?? '',
    subject: email.subject,
    message: email.text,
  };
  const copies = Object.entries(values)
    .filter(([key]) => key !== 'message')
    .map(([key, value]) => [`${key}_html`, asHtml(value)]);
  return { ...values, ...Object.fromEntries(copies), message_html: email.html };
}

/**
 * Delivery through the EmailJS account the old site paid for: its REST API, as `@emailjs/nodejs` calls it
 * (../shared/FIREBASE.md), with `fetch` so that a test can point it at a local stand-in (the SDK cannot).
 * The template gets the rendered e-mail (`subject`, `message`, `message_html`) and the values the old site's
 * templates used. EmailJS carries no attachments: the confirmation's text gives the time in SAST instead of
 * the `.ics`. Any answer but 200 throws, and the worker tries again later.
 */
export function createEmailJsTransport(settings: EmailJsSettings): MailTransport {
  const endpoint = new URL('/api/v1.0/email/send', settings.apiUrl).toString();
  const timeoutMs = settings.timeoutMs ?? emailJsTimeoutMs;
  return {
    name: 'emailjs',
    pace: { atOnce: sendsAtOnce, minIntervalMs: emailJsMinIntervalMs },
    async send(email) {
      const body = JSON.stringify({
        service_id: settings.serviceId,
        template_id: settings.templates[email.kind] ?? settings.templateId,
        user_id: settings.publicKey,
        accessToken: settings.privateKey,
        template_params: templateParams(email),
      });
      const signal = AbortSignal.timeout(timeoutMs);
      let response: Response;
      let answer: string;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal,
        });
        answer = await response.text();
      } catch (error) {
        if (!signal.aborted) throw error;
        throw new Error(
          `EmailJS did not answer within ${timeoutMs / 1000} s: it may still send this e-mail, and the retry sends it again`,
          { cause: error },
        );
      }
      if (response.status !== 200) throw new Error(`EmailJS answered ${response.status}: ${answer.slice(0, 300)}`);
    },
    close: () => undefined,
  };
}
