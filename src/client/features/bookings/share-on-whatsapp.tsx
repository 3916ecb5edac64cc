import { Share2 } from 'lucide-react';
import type { Booking } from '../../../common/bookings.ts';
import { whatsAppShareText, whatsAppShareUrl } from '../../../common/whatsapp-share.ts';

/**
 * "Share on WhatsApp" on the student's confirmed session (issue 38 §3): WhatsApp opens, in a new tab or the app,
 * with the session written out (common/whatsapp-share.ts) for the student to send to whomever they choose. Needs no
 * account and no server: it works offline too, and sends once WhatsApp has a connection.
 */
export function ShareOnWhatsApp({ booking, describedBy }: { booking: Booking; describedBy?: string }) {
  const text = whatsAppShareText(booking);
  if (!text) return null;
  return (
    <a
      href={whatsAppShareUrl(text)}
      target="_blank"
      rel="noopener noreferrer"
      className="btn-secondary mt-4"
      aria-describedby={describedBy}
    >
      <Share2 aria-hidden size={18} className="shrink-0" />
      Share on WhatsApp
      <span className="sr-only"> (opens WhatsApp in a new tab)</span>
    </a>
  );
}
