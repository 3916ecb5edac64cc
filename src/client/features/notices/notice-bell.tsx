import { Bell } from 'lucide-react';
import { useEffect } from 'react';
import { NavLink } from 'react-router-dom';
import { noticeMessages } from '../../../common/notices.ts';
import { useUnreadCount } from './use-notices.ts';

type BadgingNavigator = Navigator & { setAppBadge?(count?: number): Promise<void>; clearAppBadge?(): Promise<void> };

/**
 * The navbar's way to the notifications, with the unread count; the installed app's icon shows the same count
 * (the Badging API, where the browser has it: Chrome and Edge on desktop and Android, Safari on an iPhone's home
 * screen).
 */
export function NoticeBell({ className }: { className: (state: { isActive: boolean }) => string }) {
  const unread = useUnreadCount();

  useEffect(() => {
    const nav = navigator as BadgingNavigator;
    const done = unread > 0 ? nav.setAppBadge?.(unread) : nav.clearAppBadge?.();
    void done?.catch(() => undefined);
  }, [unread]);

  const label = unread > 0 ? `${noticeMessages.title}, ${noticeMessages.unread(unread)}` : noticeMessages.title;
  return (
    <NavLink to="/notifications" className={className} aria-label={label} title={label}>
      <span className="relative inline-flex">
        <Bell aria-hidden size={20} />
        {unread > 0 && (
          <span
            aria-hidden
            className="absolute -top-2 -right-2 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </span>
      <span className="ml-2 sm:hidden">{noticeMessages.title}</span>
    </NavLink>
  );
}
