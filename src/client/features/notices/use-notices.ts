import { useLocalData } from '../../offline/hooks.ts';
import { noticeCountTable, noticesSource, noticesTable } from './notices.sync.ts';

/** The user's notifications as this device holds them, newest first. */
export const useNotices = () =>
  useLocalData(() => noticesTable.orderBy('createdAt').reverse().toArray(), [], [noticesSource]);

/** How many of the user's notifications are unread, as the server last said (with the device's own reads). */
export function useUnreadCount(): number {
  const count = useLocalData(async () => (await noticeCountTable.get('unread'))?.unread ?? 0, [], [noticesSource]);
  return count.data ?? 0;
}
