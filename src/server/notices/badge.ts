import type { Repositories } from '../storage/storage.ts';

/**
 * The number on the app icon a push sets (issue 38 §1): for a student, her unread notices; for a tutor, the booking
 * requests of their categories waiting for a time; for the admin, every request waiting. The staff's work is what
 * waits for them, not what they have read.
 */
export function createBadgeCounter(repos: Pick<Repositories, 'accounts' | 'bookings' | 'notices'>) {
  return async (userId: string): Promise<number> => {
    const account = await repos.accounts.findById(userId);
    if (account?.role === 'admin') return repos.bookings.countWaiting('all');
    if (account?.role === 'tutor') return repos.bookings.countWaiting(await repos.accounts.categoriesOf(userId));
    return repos.notices.unreadCount(userId);
  };
}
