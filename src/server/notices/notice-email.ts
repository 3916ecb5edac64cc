import { renderEmail } from '../mail/mail.templates.ts';
import type { Mail } from '../deps.ts';
import type { Repositories } from '../storage/storage.ts';
import type { NoticeRecord } from './notices.storage.ts';

/**
 * The e-mail of a notice whose change sends none itself (an answer to a question followed, an answer accepted or
 * endorsed), queued by the dispatcher once per notice (its dedupe key), to the user's address.
 */
export function createNoticeEmailer(mail: Mail, publicUrl: string) {
  return async (notice: NoticeRecord, repos: Repositories) => {
    const account = await repos.accounts.findById(notice.userId);
    if (!account) return;
    await mail.enqueue({
      kind: 'notice',
      to: account.email,
      toName: account.name,
      dedupeKey: `notice:${notice.id}`,
      ...renderEmail({
        subject: notice.title,
        greeting: `Hi ${account.name},`,
        paragraphs: [notice.body],
        action: { label: 'Open it', url: new URL(notice.path, publicUrl).href },
        after: ['You get this because you chose to. Change what we send you on your profile page.'],
      }),
    });
  };
}
