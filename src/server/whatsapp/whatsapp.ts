import { noticeKinds, type NoticeKind } from '../../common/notices.ts';
import { normaliseWhatsAppNumber } from '../../common/whatsapp.ts';

/**
 * Notices as WhatsApp template messages (issue 38 §3). Outside a conversation the user started, the Cloud API
 * delivers only templates the owner registered in WhatsApp Manager and Meta approved: a fixed text with numbered
 * parameters ({{1}}, {{2}}…), sent by name with the parameters' values in order. Each kind of notice has one
 * template here, its text as registered (docs/whatsapp.md lists the same, and the local stand-in registers what
 * that page says, so a difference between the two fails the tests), and one button that opens the page the
 * notice is about. The request body is the Cloud API's `POST /<phone-number-id>/messages` (its "Send template
 * messages" reference).
 */

/** Every kind of notice may go on WhatsApp: the notices core's kinds (common/notices.ts), each with a template. */
export const whatsAppNoticeKinds = noticeKinds;
export type WhatsAppNoticeKind = NoticeKind;

/** A value a template's text takes, by the name the caller gives it. */
export type WhatsAppParam =
  'module' | 'time' | 'amount' | 'reference' | 'student' | 'times' | 'author' | 'question' | 'endorser' | 'what';

export interface WhatsAppTemplate {
  /** Its name in WhatsApp Manager. */
  name: string;
  /** The body as registered: {{1}} is `params[0]`, and so on. */
  body: string;
  params: readonly WhatsAppParam[];
}

/**
 * The templates, category UTILITY. Meta refuses a body that starts or ends with a parameter, so each ends with
 * words; none promotes anything (that would make it MARKETING, which users must opt in to separately).
 */
export const whatsAppTemplates: Record<WhatsAppNoticeKind, WhatsAppTemplate> = {
  'booking-confirmed': {
    name: 'tutorbook_booking_confirmed',
    body: 'Your {{1}} session is confirmed: {{2}}. Amount: {{3}}, payment reference {{4}}. The bank details are on your TutorBook dashboard.',
    params: ['module', 'time', 'amount', 'reference'],
  },
  'booking-time-changed': {
    name: 'tutorbook_booking_time_changed',
    body: 'The time of your {{1}} session (payment reference {{2}}) has changed to {{3}}. Tap below for the details.',
    params: ['module', 'reference', 'time'],
  },
  'booking-reminder': {
    name: 'tutorbook_booking_reminder',
    body: 'Reminder: your {{1}} session is on {{2}}. If you have not paid yet, pay by EFT with the payment reference {{3}}. Tap below for the details.',
    params: ['module', 'time', 'reference'],
  },
  'booking-cancelled': {
    name: 'tutorbook_booking_cancelled',
    body: 'Your {{1}} session on {{2}} (payment reference {{3}}) has been cancelled. Tap below for the details.',
    params: ['module', 'time', 'reference'],
  },
  'booking-request': {
    name: 'tutorbook_booking_request',
    body: 'New booking request from {{1}} for {{2}}: {{3}}. Please confirm one of the times on your TutorBook dashboard.',
    params: ['student', 'module', 'times'],
  },
  'question-answered': {
    name: 'tutorbook_question_answered',
    body: 'There is a new answer by {{1}} to the question "{{2}}" on the TutorBook board. Tap below to read it.',
    params: ['author', 'question'],
  },
  'answer-accepted': {
    name: 'tutorbook_answer_accepted',
    body: 'Your answer to "{{1}}" was accepted by the person who asked. Thank you for helping.',
    params: ['question'],
  },
  'answer-endorsed': {
    name: 'tutorbook_answer_endorsed',
    body: 'Your answer to "{{1}}" was endorsed by {{2}}. Tap below to see it on the TutorBook board.',
    params: ['question', 'endorser'],
  },
  'session-offered': {
    name: 'tutorbook_session_offered',
    body: 'Your tutor {{1}} offered you a session on your question "{{2}}". Tap below to book it: your request is ready to send.',
    params: ['author', 'question'],
  },
  'payment-recorded': {
    name: 'tutorbook_payment_recorded',
    body: 'We have recorded your payment of {{1}} for {{2}} (payment reference {{3}}). Thank you: your receipt is on your TutorBook dashboard.',
    params: ['amount', 'what', 'reference'],
  },
};

/**
 * Every template has one URL button, registered as `https://<your site>/{{1}}`: the value named `path` is the page
 * after the site's address (`student-dashboard`, `tutor-dashboard`, `qa/<question id>`).
 */
export const whatsAppButton = { text: 'Open TutorBook', param: 'path' } as const;

/** The Cloud API's body for one template message. */
export interface WhatsAppTemplateMessage {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
  type: 'template';
  template: {
    name: string;
    language: { code: string };
    components: [
      { type: 'body'; parameters: { type: 'text'; text: string }[] },
      { type: 'button'; sub_type: 'url'; index: '0'; parameters: [{ type: 'text'; text: string }] },
    ];
  };
}

/**
 * The longest a value may be. The API takes up to 1024 characters for the whole body; a question's title or a
 * module's name is cut (with "…") so that the body stays readable and under it.
 */
export const whatsAppParamMaxLength = 100;

/**
 * A value as a template parameter takes it: the Cloud API refuses one with a line break, a tab or more than four
 * spaces in a row (error 132018), and one that is empty. Control characters and bidirectional overrides go too.
 */
export function whatsAppParamText(value: string): string {
  const text = value
    .replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > whatsAppParamMaxLength ? `${text.slice(0, whatsAppParamMaxLength - 1).trimEnd()}…` : text;
}

/** `qa/<id>`: a path under the site, as the button's URL takes it (no scheme, no leading slash, nothing to escape). */
function buttonPath(value: string | undefined, kind: WhatsAppNoticeKind): string {
  const path = (value ?? '').trim().replace(/^\/+/, '');
  if (!/^[A-Za-z0-9\-._~/?=&#%]+$/.test(path))
    throw new Error(
      `WhatsApp ${kind}: "path" must be a page under the site, such as student-dashboard (got "${value}")`,
    );
  return path;
}

/**
 * The Cloud API's request body for notice `kind` to the WhatsApp number `to` (any spelling of a South African
 * mobile number; common/whatsapp.ts), filled with `params`: the template's values by name, and `path` for its
 * button. Values the template does not use are ignored; a missing or empty one, or a number that is not one,
 * throws (the notice cannot be sent as it is). `language` is the code the templates were registered in.
 */
export function whatsappTemplateMessage(
  kind: WhatsAppNoticeKind,
  params: Record<string, string>,
  to: string,
  { language = 'en' }: { language?: string } = {},
): WhatsAppTemplateMessage {
  const template = whatsAppTemplates[kind];
  const number = normaliseWhatsAppNumber(to);
  if (!number.ok) throw new Error(`WhatsApp ${kind}: ${number.message}`);
  const texts = template.params.map((name) => {
    const text = whatsAppParamText(params[name] ?? '');
    if (!text) throw new Error(`WhatsApp ${kind}: the value "${name}" is missing`);
    return text;
  });
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: number.number,
    type: 'template',
    template: {
      name: template.name,
      language: { code: language },
      components: [
        { type: 'body', parameters: texts.map((text) => ({ type: 'text', text })) },
        {
          type: 'button',
          sub_type: 'url',
          index: '0',
          parameters: [{ type: 'text', text: buttonPath(params[whatsAppButton.param], kind) }],
        },
      ],
    },
  };
}

/** The text the user reads for a message this module made: the template's body with its values in place. */
export function whatsAppMessageText(message: WhatsAppTemplateMessage): string {
  const template = Object.values(whatsAppTemplates).find((t) => t.name === message.template.name);
  if (!template) throw new Error(`WhatsApp: no template named ${message.template.name}`);
  const values = message.template.components[0].parameters.map((p) => p.text);
  return template.body.replace(/\{\{(\d+)\}\}/g, (_, n: string) => values[Number(n) - 1] ?? '');
}
