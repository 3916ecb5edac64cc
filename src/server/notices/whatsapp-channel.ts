import type { NoticeKind } from '../../common/notices.ts';
import type { WhatsAppSender } from '../whatsapp/whatsapp.sender.ts';
import { whatsappTemplateMessage } from '../whatsapp/whatsapp.ts';
import type { ChannelSender } from './delivery-worker.ts';

/**
 * The WhatsApp channel (issue 38 §3, docs/whatsapp.md): a delivery's notice as its kind's template message, through
 * the owner's WhatsApp Business account. A notice that cannot be made into its template (a value missing, a number
 * that is not one) is not sent, and says why.
 */
export function createWhatsAppChannel(deps: { sender: WhatsAppSender; language: string }): ChannelSender {
  return {
    channel: 'whatsapp',
    // The Cloud API's own pace is far above a tutoring business's notices; a few at once is plenty.
    atOnce: 4,
    async send(delivery) {
      let body: ReturnType<typeof whatsappTemplateMessage>;
      try {
        const { params } = JSON.parse(delivery.payload) as { params: Record<string, string> };
        body = whatsappTemplateMessage(delivery.kind as NoticeKind, params, delivery.target, {
          language: deps.language,
        });
      } catch (error) {
        return { sent: false, retry: false, reason: (error as Error).message };
      }
      return deps.sender.send(body);
    },
  };
}
