import { z } from './zod.ts';

/**
 * Notices (issue 38, docs/decisions/0059): what happened that a user should hear of, written once with the change
 * that causes it, kept in their notifications list and delivered through each channel they chose. The kinds, the
 * channels, the preferences and the API's shapes; the writing and the delivering are the server's (server/notices/).
 */

export const noticeKinds = [
  'booking-request',
  'booking-confirmed',
  'booking-time-changed',
  'booking-reminder',
  'booking-cancelled',
  'payment-recorded',
  'question-answered',
  'answer-accepted',
  'answer-endorsed',
  'session-offered',
] as const;
export type NoticeKind = (typeof noticeKinds)[number];

/** The channels besides the notifications list. E-mail as it is; push and WhatsApp only after an opt-in. */
export const noticeChannels = ['email', 'push', 'whatsapp'] as const;
export type NoticeChannel = (typeof noticeChannels)[number];

/** The channels a delivery goes through the notices' outbox (e-mail has its own: server/mail/). */
export const deliveryChannels = ['push', 'whatsapp'] as const;
export type DeliveryChannel = (typeof deliveryChannels)[number];

/**
 * How each kind is named on the preferences page, and whether its e-mail is a service message that always goes
 * (a booking's e-mails carry its terms, the .ics and the payment reference: `emailAlways`). Every kind is a
 * service message about the user's own bookings or questions: nothing promotional goes through any channel.
 */
export const noticeKindInfo: Record<NoticeKind, { label: string; emailAlways: boolean; who: 'everyone' | 'staff' }> = {
  'booking-request': { label: 'A new booking request for you', emailAlways: true, who: 'staff' },
  'booking-confirmed': { label: 'Your session is confirmed', emailAlways: true, who: 'everyone' },
  'booking-time-changed': { label: 'Your session’s time changed', emailAlways: true, who: 'everyone' },
  'booking-reminder': { label: 'A reminder before your session', emailAlways: true, who: 'everyone' },
  'booking-cancelled': { label: 'A session was cancelled', emailAlways: true, who: 'everyone' },
  'payment-recorded': { label: 'A payment was recorded', emailAlways: true, who: 'everyone' },
  'question-answered': { label: 'An answer to a question you follow', emailAlways: false, who: 'everyone' },
  'answer-accepted': { label: 'Your answer was accepted', emailAlways: false, who: 'everyone' },
  'answer-endorsed': { label: 'Your answer was endorsed', emailAlways: false, who: 'everyone' },
  'session-offered': { label: 'A tutor offered a session on your question', emailAlways: false, who: 'everyone' },
};

/** A notice in the user's list. UTC ISO times; `path` is the page it opens. */
export const noticeSchema = z.object({
  id: z.string(),
  kind: z.enum(noticeKinds),
  title: z.string(),
  body: z.string(),
  path: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** `GET /api/notices`: the newest first, and how many are unread in all. */
export const noticeListSchema = z.object({ notices: z.array(noticeSchema), unread: z.number().int() });
export type NoticeList = z.infer<typeof noticeListSchema>;

/** `POST /api/notices/read`: these, or every notice up to now. */
export const markReadInputSchema = z.union([
  z.strictObject({ ids: z.array(z.string().min(1).max(100)).min(1).max(100) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type MarkReadInput = z.infer<typeof markReadInputSchema>;

/**
 * One choice: on or off, and when it was made (POPIA section 69 wants the consent kept with its time). A choice
 * never made is off for push and WhatsApp, and on for e-mail.
 */
export const noticeChoiceSchema = z.object({ on: z.boolean(), at: z.string() });
export type NoticeChoice = z.infer<typeof noticeChoiceSchema>;

/** A user's choices: per kind and channel, and the WhatsApp number they gave. */
export const noticePreferencesSchema = z.object({
  choices: z.partialRecord(z.enum(noticeKinds), z.partialRecord(z.enum(noticeChannels), noticeChoiceSchema)),
  whatsappNumber: z.string().nullable(),
});
export type NoticePreferences = z.infer<typeof noticePreferencesSchema>;

export const emptyNoticePreferences: NoticePreferences = { choices: {}, whatsappNumber: null };

/** Whether `prefs` send `kind` through `channel`: an e-mail that always goes, or a choice made and on. */
export function isChosen(prefs: NoticePreferences, kind: NoticeKind, channel: NoticeChannel): boolean {
  if (channel === 'email' && noticeKindInfo[kind].emailAlways) return true;
  const choice = prefs.choices[kind]?.[channel];
  return choice ? choice.on : channel === 'email';
}

/**
 * `PUT /api/me/notice-preferences`: the choices to change (each kind and channel given is set, with the server's
 * time), and the WhatsApp number when it changes. Turning WhatsApp on needs a number.
 */
export const noticePreferencesInputSchema = z.strictObject({
  set: z
    .array(z.strictObject({ kind: z.enum(noticeKinds), channel: z.enum(noticeChannels), on: z.boolean() }))
    .max(noticeKinds.length * noticeChannels.length),
  whatsappNumber: z.string().max(40).nullable().optional(),
});
export type NoticePreferencesInput = z.infer<typeof noticePreferencesInputSchema>;

/** A browser's push subscription as `PushSubscription.toJSON()` gives it. */
export const pushSubscriptionInputSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInputSchema>;

/** A push message's payload, read by the service worker (kept well under the 4 KB push services take). */
export const pushPayloadSchema = z.object({
  id: z.string(),
  kind: z.enum(noticeKinds),
  title: z.string(),
  body: z.string(),
  path: z.string(),
  /** The app icon's badge: a student's unread notices; for the staff, the booking requests waiting for them. */
  badge: z.number().int().optional(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;

/** What a topic is: a question's followers hear of its answers. */
export const questionTopic = (questionId: string): string => `question:${questionId}`;

export const noticeMessages = {
  title: 'Notifications',
  empty: 'Nothing yet. When a tutor confirms a session or someone answers a question you follow, it shows here.',
  markAllRead: 'Mark all as read',
  unread: (n: number) => (n === 1 ? '1 unread notification' : `${n} unread notifications`),
  preferencesTitle: 'How we tell you',
  preferencesIntro:
    'Everything here is about your own sessions, payments and questions. We never send promotions. E-mail is on as it always was; push notifications and WhatsApp are off until you turn them on.',
  saved: 'Your choices are saved.',
  whatsappNeedsNumber: 'Type the WhatsApp number to send to first.',
  pushAsk: 'Get a notification when your tutor confirms',
  pushIosHint:
    'On an iPhone or iPad, push notifications need the app on your home screen: Share, then Add to Home Screen.',
  pushDenied: 'Notifications are blocked for this site in your browser’s settings.',
  pushUnsupported: 'This browser cannot show push notifications.',
  notFound: 'No such notification.',
} as const;

/** `GET /api/me/notice-preferences`: the user's choices, and what this server offers. */
export const noticeSettingsSchema = z.object({
  preferences: noticePreferencesSchema,
  /** The server's VAPID public key for `pushManager.subscribe`, base64url. */
  pushKey: z.string(),
  /** Whether WhatsApp messages can be sent here (the owner's WhatsApp Business account is configured). */
  whatsapp: z.boolean(),
});
export type NoticeSettings = z.infer<typeof noticeSettingsSchema>;

/** `DELETE /api/me/push-subscriptions`: the device's subscription to remove. */
export const pushUnsubscribeInputSchema = z.strictObject({ endpoint: z.string().min(1).max(2000) });

/** A delivery failed for good, as the admin sees it (`GET /api/admin/deliveries`). */
export const failedDeliverySchema = z.object({
  id: z.string(),
  channel: z.enum(['email', ...deliveryChannels]),
  kind: z.string(),
  to: z.string(),
  status: z.enum(['failed', 'gone']),
  attempts: z.number().int(),
  reason: z.string(),
  createdAt: z.string(),
});
export type FailedDelivery = z.infer<typeof failedDeliverySchema>;
export const failedDeliveriesSchema = z.object({ deliveries: z.array(failedDeliverySchema) });
