import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { EmailAttachment } from './mail.table.ts';

export interface OutgoingEmail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: EmailAttachment[];
}

export interface MailTransport {
  readonly name: string;
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** Real delivery through any SMTP provider (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com). */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  // Pooled: one connection carries many messages, instead of a new connection (and TLS handshake) for each.
  const transporter = nodemailer.createTransport({ url: smtpUrl, pool: true });
  return {
    name: 'smtp',
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
