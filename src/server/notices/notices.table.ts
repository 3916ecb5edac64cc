export interface NoticesTable {
  id: string;
  /** The user it is for; null on a fan-out (a notice for `topic`'s followers, expanded after the commit). */
  user_id: string | null;
  topic: string | null;
  except_user_id: string | null;
  kind: string;
  title: string;
  body: string;
  path: string;
  /** The WhatsApp template's values (`NewNotice.params`) as JSON, or null. */
  params: string | null;
  created_at: string;
  read_at: string | null;
  /** When its deliveries (a fan-out: its notices) were made; null until then. */
  dispatched_at: string | null;
}

export interface NoticeDeliveriesTable {
  id: string;
  notice_id: string;
  user_id: string;
  kind: string;
  channel: string;
  target: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  locked_until: string | null;
  last_error: string | null;
  provider_id: string | null;
  provider_status: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface NoticeFollowsTable {
  topic: string;
  user_id: string;
  created_at: string;
}

export interface NoticePreferencesTable {
  user_id: string;
  /** `NoticePreferences` (common/notices.ts) as JSON. */
  preferences: string;
  updated_at: string;
}

export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
}
