import { createHash } from 'node:crypto';
import {
  noticeKindInfo,
  type FailedDelivery,
  type MarkReadInput,
  type NoticeList,
  type NoticePreferences,
  type NoticePreferencesInput,
  type NoticeSettings,
  type PushSubscriptionInput,
} from '../../../common/notices.ts';
import type { Me } from '../../../common/session.ts';
import { requireRole, requireUser } from '../../auth/auth.session.ts';
import type { Uses } from '../../deps.ts';
import { deliveriesTable, noticesTable } from '../../notices/notify.ts';
import type { PersonalDataPart } from '../../personal-data.ts';
import { isPushEndpointAllowed } from '../../notices/push-channel.ts';
import {
  createDeliveryNotFoundError,
  createPushServiceRefusedError,
  createWhatsAppNeedsNumberError,
} from './notices.errors.ts';

/**
 * The user's side of notices (issue 38, docs/decisions/0059): their notifications list, read and unread; their
 * choices of channel per kind, each kept with its time (POPIA section 69); their devices' push subscriptions. And
 * the admin's: every delivery that failed for good, to send again. Writing notices is the changes' own
 * (server/notices/notify.ts).
 */

/** The newest notices a list shows (older ones stay in the export). */
export const noticeListLimit = 50;

export async function listNotices({ repos }: Uses<'notices'>, me: Me | undefined): Promise<NoticeList> {
  const user = requireUser(me);
  const [notices, unread] = await Promise.all([
    repos.notices.listFor(user.id, noticeListLimit),
    repos.notices.unreadCount(user.id),
  ]);
  return {
    notices: notices.map((n) => ({
      id: n.id,
      kind: n.kind,
      title: n.title,
      body: n.body,
      path: n.path,
      createdAt: n.createdAt,
      readAt: n.readAt,
    })),
    unread,
  };
}

/** Marks the user's notices read; the user's other devices hear of it. Others' ids change nothing. */
export async function markNoticesRead(
  { repos, clock, events }: Uses<'notices', 'clock' | 'events'>,
  me: Me | undefined,
  input: MarkReadInput,
): Promise<{ unread: number }> {
  const user = requireUser(me);
  const changed = await repos.notices.markRead(user.id, 'all' in input ? 'all' : input.ids, clock.now());
  if (changed > 0) events.publish({ table: noticesTable, ids: [], audience: { userIds: [user.id] } });
  return { unread: await repos.notices.unreadCount(user.id) };
}

/** What the preferences page shows: the choices, the server's push key, and whether WhatsApp is offered. */
export async function getNoticeSettings(
  { repos }: Uses<'notices'>,
  me: Me | undefined,
  offered: { pushKey: string; whatsapp: boolean },
): Promise<NoticeSettings> {
  const user = requireUser(me);
  const preferences = (await repos.notices.preferencesOf(user.id)) ?? { choices: {}, whatsappNumber: null };
  return { preferences, ...offered };
}

/**
 * Sets the choices given, each with the server's time (a choice unchanged keeps the time it was made), and the
 * WhatsApp number. A kind for staff only cannot be chosen by a student; WhatsApp on needs a number.
 */
export async function saveNoticePreferences(
  { repos, clock }: Uses<'notices', 'clock'>,
  me: Me | undefined,
  input: NoticePreferencesInput,
  normaliseNumber: (typed: string) => string | undefined,
): Promise<NoticePreferences> {
  const user = requireUser(me);
  const old = (await repos.notices.preferencesOf(user.id)) ?? { choices: {}, whatsappNumber: null };
  let whatsappNumber = old.whatsappNumber;
  if (input.whatsappNumber !== undefined) {
    const typed = input.whatsappNumber?.trim() ?? '';
    if (typed === '') whatsappNumber = null;
    else {
      const number = normaliseNumber(typed);
      if (!number) throw createWhatsAppNeedsNumberError();
      whatsappNumber = number;
    }
  }
  const at = clock.now().toISOString();
  const choices = structuredClone(old.choices);
  for (const { kind, channel, on } of input.set) {
    if (noticeKindInfo[kind].who === 'staff' && user.role === 'student') continue;
    if (channel === 'email' && noticeKindInfo[kind].emailAlways) continue;
    const kindChoices = (choices[kind] ??= {});
    if (kindChoices[channel]?.on !== on) kindChoices[channel] = { on, at };
  }
  const wantsWhatsApp = Object.values(choices).some((c) => c?.whatsapp?.on);
  if (wantsWhatsApp && !whatsappNumber) throw createWhatsAppNeedsNumberError();
  const preferences: NoticePreferences = { choices, whatsappNumber };
  await repos.notices.savePreferences(user.id, preferences, clock.now());
  return preferences;
}

/** A device's subscription is known by its endpoint's hash: the same device subscribing again replaces it. */
export const subscriptionIdOf = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

export async function subscribePush(
  { repos, clock, config }: Uses<'notices', 'clock' | 'config'>,
  me: Me | undefined,
  input: PushSubscriptionInput,
): Promise<void> {
  const user = requireUser(me);
  // The server posts to the endpoint: only a browser push service's, never an address someone typed.
  if (!isPushEndpointAllowed(input.endpoint, config.production)) throw createPushServiceRefusedError();
  await repos.notices.savePushSubscription({
    id: subscriptionIdOf(input.endpoint),
    userId: user.id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    createdAt: clock.now().toISOString(),
  });
}

/** Removes the user's own subscription for `endpoint`; another user's stays. */
export async function unsubscribePush({ repos }: Uses<'notices'>, me: Me | undefined, endpoint: string): Promise<void> {
  const user = requireUser(me);
  await repos.notices.deletePushSubscription(subscriptionIdOf(endpoint), user.id);
}

/** How many failed deliveries the admin's list shows, of each channel. */
export const failedListLimit = 200;

/** The phone number's last digits, or the device's push service: enough to tell them apart, no more. */
const targetShown = (channel: string, target: string) =>
  channel === 'whatsapp' ? `WhatsApp …${target.slice(-4)}` : 'a device';

/** Every delivery that failed for good (push, WhatsApp), newest first; the admin only. */
export async function listFailedDeliveries(
  { repos }: Uses<'noticeDeliveries' | 'accounts'>,
  me: Me | undefined,
): Promise<{ deliveries: FailedDelivery[] }> {
  requireRole(me, 'admin');
  const failed = await repos.noticeDeliveries.listFailed(failedListLimit);
  const names = new Map<string, string>();
  for (const userId of new Set(failed.map((d) => d.userId)))
    names.set(userId, (await repos.accounts.findById(userId))?.name ?? 'a deleted account');
  return {
    deliveries: failed.map((d) => ({
      id: d.id,
      channel: d.channel,
      kind: d.kind,
      to: `${names.get(d.userId)}, ${targetShown(d.channel, d.target)}`,
      status: d.status === 'gone' ? 'gone' : 'failed',
      attempts: d.attempts,
      reason: d.lastError ?? 'failed',
      createdAt: d.createdAt,
    })),
  };
}

/** Sends a failed delivery again; its channel's worker hears of it at once. The admin only. */
export async function resendDelivery(
  { repos, clock, events }: Uses<'noticeDeliveries', 'clock' | 'events'>,
  me: Me | undefined,
  id: string,
): Promise<void> {
  requireRole(me, 'admin');
  if (!(await repos.noticeDeliveries.resend(id, clock.now()))) throw createDeliveryNotFoundError();
  events.publish({ table: deliveriesTable, ids: [id], audience: {} });
}

/** The notices' part of the data export and of account deletion. */
export const noticesPersonalData: PersonalDataPart = {
  async exportFor({ repos }, me) {
    return { notifications: await repos.notices.exportOf(me.id) };
  },
  async eraseFor(tx, userId) {
    await tx.repos.notices.deleteOf(userId);
    await tx.repos.noticeDeliveries.deleteOf(userId);
  },
};
