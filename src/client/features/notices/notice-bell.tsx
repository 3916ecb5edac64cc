import { Bell } from 'lucide-react';
import { NavLink } from 'react-router-dom';
import { noticeMessages } from '../../../common/notices.ts';

/**
 * The navbar's way to the notifications. It reads nothing itself: with the notices' source on every page, a
 * booking queued offline went out later once the connection was back (tests/bookings.spec.ts, "a page that stops
 * just after queueing…"), so the unread count and the app icon's badge are the notifications page's for now.
 */
export function NoticeBell({ className }: { className: (state: { isActive: boolean }) => string }) {
  return (
    <NavLink to="/notifications" className={className} aria-label={noticeMessages.title} title={noticeMessages.title}>
      <Bell aria-hidden size={20} />
      <span className="ml-2 sm:hidden">{noticeMessages.title}</span>
    </NavLink>
  );
}
