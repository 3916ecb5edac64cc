import { Mail, MessageCircle } from 'lucide-react';
import { brand, mailtoUrl, whatsAppUrl } from '../../common/brand.ts';

/** A WhatsApp chat with `text` already typed in. */
export const whatsAppLink = (text?: string) => (text ? `${whatsAppUrl}?text=${encodeURIComponent(text)}` : whatsAppUrl);

/** An e-mail to us with `subject` filled in. */
export const mailLink = (subject?: string) =>
  subject ? `${mailtoUrl}?subject=${encodeURIComponent(subject)}` : mailtoUrl;

const tones = {
  /** On the brand-coloured panels of the public pages. */
  onBrand: {
    whatsApp: 'btn w-full bg-white text-brand-900 hover:bg-brand-50 sm:w-auto',
    email: 'btn w-full border border-white/70 text-white hover:bg-white/10 sm:w-auto',
  },
  /** On an ordinary page or card. */
  plain: {
    whatsApp: 'btn w-full bg-brand-700 text-white hover:bg-brand-800 sm:w-auto',
    email: 'btn-secondary w-full sm:w-auto',
  },
} as const;

/**
 * The contact route (spec §1: WhatsApp {phone} and e-mail {email}), optionally with a message typed in for
 * WhatsApp and a subject for the e-mail. Icons keep their size on a narrow phone.
 */
export function ContactLinks({
  message,
  subject,
  tone = 'plain',
  className = '',
}: {
  message?: string;
  subject?: string;
  tone?: keyof typeof tones;
  className?: string;
}) {
  const styles = tones[tone];
  return (
    <ul className={`flex flex-col gap-3 sm:flex-row sm:flex-wrap ${className}`}>
      <li>
        <a href={whatsAppLink(message)} target="_blank" rel="noopener noreferrer" className={styles.whatsApp}>
          <MessageCircle aria-hidden size={20} className="shrink-0" />
          <span>
            WhatsApp <span className="whitespace-nowrap">{brand.phoneDisplay}</span>
          </span>
        </a>
      </li>
      <li>
        <a href={mailLink(subject)} className={styles.email}>
          <Mail aria-hidden size={20} className="shrink-0" />
          <span className="min-w-0 [overflow-wrap:anywhere]">{brand.email}</span>
        </a>
      </li>
    </ul>
  );
}
