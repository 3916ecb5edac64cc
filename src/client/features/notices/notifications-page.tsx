import { Bell, CheckCheck } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { noticeMessages, type Notice as NoticeItem } from '../../../common/notices.ts';
import { formatSastDateTime } from '../../../common/sast.ts';
import { Notice } from '../../components/notice.tsx';
import { PageMeta } from '../../components/page-meta.tsx';
import { errorText } from '../../lib/error-text.ts';
import { showAppBadge } from '../../lib/app-badge.ts';
import { useSession } from '../../lib/session.tsx';
import { toast } from '../../lib/toast.ts';
import { FailedDeliveries } from './failed-deliveries.tsx';
import { markNoticesRead } from './notices.sync.ts';
import { useNotices, useUnreadCount } from './use-notices.ts';

const markRead = (payload: { ids: string[] } | { all: true }) =>
  void markNoticesRead(payload).catch((error: unknown) => toast.error(errorText(error)));

/**
 * /notifications (issue 38 §1): what happened that the user should know, newest first, unread marked; read offline
 * from the device, and marked read offline too (queued). Each opens the page it is about.
 */
export function NotificationsPage() {
  const notices = useNotices();
  const unread = useUnreadCount();
  const items = notices.data ?? [];
  const { session } = useSession();

  // A student's app icon shows her unread count; the staff's shows the requests waiting (their dashboard sets it).
  const isStudent = session.me?.role === 'student';
  useEffect(() => {
    if (isStudent) showAppBadge(unread);
  }, [isStudent, unread]);

  return (
    <section className="container-page max-w-3xl py-10">
      <PageMeta title={noticeMessages.title} description="What happened with your sessions, payments and questions." />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">{noticeMessages.title}</h1>
        <button type="button" className="btn-secondary" disabled={unread === 0} onClick={() => markRead({ all: true })}>
          <CheckCheck aria-hidden size={18} className="mr-2" />
          {noticeMessages.markAllRead}
        </button>
      </div>
      <p className="mt-2 text-slate-700 dark:text-slate-300" role="status">
        {unread === 0 ? 'Everything is read.' : noticeMessages.unread(unread)}
      </p>
      {notices.failure === 'offline' && (
        <Notice tone="offline" className="mt-4">
          You are offline: these are the notifications as they were last loaded.
        </Notice>
      )}
      {notices.status === 'loading' && (
        <p className="mt-6 text-slate-600 dark:text-slate-400" role="status">
          Loading your notifications…
        </p>
      )}
      {notices.status === 'unavailable' && (
        <Notice tone="error" className="mt-6">
          Your notifications could not be loaded. Try again when you are online.
        </Notice>
      )}
      {notices.status === 'empty' && (
        <div className="card mt-6 flex items-start gap-3">
          <Bell aria-hidden className="mt-1 shrink-0 text-slate-500" size={20} />
          <p className="text-slate-700 dark:text-slate-300">{noticeMessages.empty}</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="mt-6 space-y-3">
          {items.map((n) => (
            <NoticeRow key={n.id} notice={n} />
          ))}
        </ul>
      )}
      {/* The admin also sees the notices that did not reach their users. */}
      {session.me?.role === 'admin' && (
        <div className="mt-10">
          <FailedDeliveries />
        </div>
      )}
    </section>
  );
}

function NoticeRow({ notice }: { notice: NoticeItem }) {
  const unread = notice.readAt === null;
  return (
    <li
      className={`card relative ${unread ? 'border-l-4 border-l-brand-600 dark:border-l-brand-400' : ''}`}
      aria-label={unread ? `Unread: ${notice.title}` : undefined}
    >
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {unread && <span className="mr-2 font-semibold text-brand-700 dark:text-brand-300">New</span>}
        <time dateTime={notice.createdAt}>{formatSastDateTime(notice.createdAt)}</time>
      </p>
      <h2 className="mt-1 font-semibold">
        <Link
          to={notice.path}
          className="after:absolute after:inset-0 hover:underline focus-visible:underline"
          onClick={() => unread && markRead({ ids: [notice.id] })}
        >
          {notice.title}
        </Link>
      </h2>
      <p className="mt-1 text-slate-700 dark:text-slate-300">{notice.body}</p>
    </li>
  );
}
