import type { Notice } from '../../../common/notices.ts';
import { client } from '../../lib/api-client.ts';
import { readJson } from '../../lib/api.ts';
import { readSent } from '../../lib/revalidated.ts';
import { defineLocalTable } from '../../offline/db.ts';
import { defineMutation, defineSource } from '../../offline/engine.ts';

/**
 * The user's notifications on the local-first engine (issue 38): the newest, kept here to read offline, and how many
 * are unread (the navbar's count and the app icon's badge). Marking them read works offline: it is queued.
 */
export const noticesTable = defineLocalTable<Notice>({
  name: 'notices',
  schema: 'id, createdAt',
  version: 1,
  scope: 'user',
});

/** One row: how many of the user's notices are unread, as the server last said (the list holds the newest only). */
export interface NoticeCountRow {
  id: 'unread';
  unread: number;
}
export const noticeCountTable = defineLocalTable<NoticeCountRow>({
  name: 'noticeCount',
  schema: 'id',
  version: 1,
  scope: 'user',
});

export const noticesSource = defineSource({
  name: 'notices',
  tables: ['notices', 'noticeCount'],
  needsUser: true,
  listensTo: ['notices'],
  pull: async ({ signal }) => {
    const body = await readJson(await client.api.notices.$get({}, { init: { signal } }));
    return {
      put: { notices: body.notices, noticeCount: [{ id: 'unread', unread: body.unread }] },
      replace: true,
    };
  },
});

export type MarkReadPayload = { ids: string[] } | { all: true };

/** Marks notices read: on the device at once, on the server when it can. */
export const markNoticesRead = defineMutation<MarkReadPayload, { unread: number }>({
  name: 'notices.read',
  version: 1,
  target: () => ({ table: 'noticeCount', id: 'unread' }),
  touches: () => [{ table: 'noticeCount', id: 'unread' }],
  describe: () => ({ label: 'Notifications marked as read', href: '/notifications' }),
  apply: async (p, tx) => {
    const notices = noticesTable.in(tx);
    const now = new Date().toISOString();
    const unreadHere = (await notices.toArray()).filter(
      (n) => n.readAt === null && ('all' in p || p.ids.includes(n.id)),
    );
    for (const n of unreadHere) await notices.put({ ...n, readAt: now });
    const counts = noticeCountTable.in(tx);
    const before = (await counts.get('unread'))?.unread ?? 0;
    await counts.put({ id: 'unread', unread: 'all' in p ? 0 : Math.max(0, before - unreadHere.length) });
  },
  send: async (p, { headers }) => readSent(await client.api.notices.read.$post({ json: p }, { headers })),
  acknowledge: async (_p, { unread }, tx) => {
    await noticeCountTable.in(tx).put({ id: 'unread', unread });
  },
});
