import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { templatesFromDocs } from '../../../scripts/whatsapp-standin.ts';
import { whatsAppMessages } from '../../common/whatsapp.ts';
import {
  whatsAppMessageText,
  whatsAppNoticeKinds,
  whatsAppParamText,
  whatsAppTemplates,
  whatsappTemplateMessage,
} from './whatsapp.ts';

const confirmed = {
  module: 'Java Programming 1',
  time: 'Tue, 08 Dec 2026, 14:00–15:00 SAST',
  amount: 'R180',
  reference: 'TB-ABC234',
  path: 'student-dashboard',
};

describe('a notice as a WhatsApp template message', () => {
  test('the Cloud API’s body: the template by name, its values in order, the button’s page, the number in E.164', () => {
    expect(whatsappTemplateMessage('booking-confirmed', confirmed, '082 123 4567')).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '27821234567',
      type: 'template',
      template: {
        name: 'tutorbook_booking_confirmed',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Java Programming 1' },
              { type: 'text', text: 'Tue, 08 Dec 2026, 14:00–15:00 SAST' },
              { type: 'text', text: 'R180' },
              { type: 'text', text: 'TB-ABC234' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'student-dashboard' }] },
        ],
      },
    });
  });

  test('the values go in the template’s order, whatever order they are given in; others are left out', () => {
    const message = whatsappTemplateMessage(
      'booking-time-changed',
      {
        time: 'Wed, 09 Dec 2026, 10:00–11:00 SAST',
        extra: 'not used',
        path: 'student-dashboard',
        reference: 'TB-ABC234',
        module: 'Statistics',
      },
      '+27 82 123 4567',
      { language: 'en_US' },
    );
    expect(message.template.language.code).toBe('en_US');
    expect(message.template.components[0].parameters.map((p) => p.text)).toEqual([
      'Statistics',
      'TB-ABC234',
      'Wed, 09 Dec 2026, 10:00–11:00 SAST',
    ]);
    expect(message.template.components[1].parameters[0].text).toBe('student-dashboard');
  });

  test('the text the user reads is the registered body with the values in place', () => {
    expect(whatsAppMessageText(whatsappTemplateMessage('booking-confirmed', confirmed, '0821234567'))).toBe(
      'Your Java Programming 1 session is confirmed: Tue, 08 Dec 2026, 14:00–15:00 SAST. Amount: R180, payment ' +
        'reference TB-ABC234. The bank details are on your TutorBook dashboard.',
    );
  });

  test('values are one line, with no more than one space in a row, and cut at 100 characters', () => {
    expect(whatsAppParamText('  How do I\n\tread a   CSV\r\nfile?  ')).toBe('How do I read a CSV file?');
    expect(whatsAppParamText('Name\u202Eevil\u0000')).toBe('Name evil');
    const long = whatsAppParamText('x'.repeat(300));
    expect(long).toHaveLength(100);
    expect(long.endsWith('…')).toBe(true);
    const message = whatsappTemplateMessage(
      'question-answered',
      { author: 'Sipho', question: 'Why\n\nthis?     And that?', path: '/qa/6f1c' },
      '27821234567',
    );
    expect(message.template.components[0].parameters[1]!.text).toBe('Why this? And that?');
    // The button's page is under the site: a leading slash is dropped.
    expect(message.template.components[1].parameters[0].text).toBe('qa/6f1c');
  });

  test.each([
    ['a value missing', { ...confirmed, reference: undefined }, '0821234567', 'the value "reference" is missing'],
    ['a value only spaces', { ...confirmed, module: ' \n ' }, '0821234567', 'the value "module" is missing'],
    ['no page for the button', { ...confirmed, path: undefined }, '0821234567', '"path" must be a page'],
    ['a page that is an address', { ...confirmed, path: 'https://evil.example/x' }, '0821234567', '"path" must be'],
    ['a page with spaces', { ...confirmed, path: 'student dashboard' }, '0821234567', '"path" must be a page'],
    ['a landline', confirmed, '011 123 4567', whatsAppMessages.numberNotMobile],
    ['no number', confirmed, '', whatsAppMessages.numberRequired],
    ['a number from abroad', confirmed, '+44 7700 900123', whatsAppMessages.numberNotSouthAfrican],
  ])('%s: refused, saying why', (_, params, to, why) => {
    expect(() => whatsappTemplateMessage('booking-confirmed', params as Record<string, string>, to)).toThrow(why);
  });

  test('every kind of notice has a template whose {{n}} are its values, 1 to n, each once', () => {
    expect(Object.keys(whatsAppTemplates).sort()).toEqual([...whatsAppNoticeKinds].sort());
    for (const [kind, template] of Object.entries(whatsAppTemplates)) {
      const numbers = [...template.body.matchAll(/\{\{(\d+)\}\}/g)].map(([, n]) => Number(n));
      expect(numbers, kind).toEqual(template.params.map((_, i) => i + 1));
      expect(template.name, kind).toMatch(/^tutorbook_[a-z_]+$/);
      // Meta refuses a body that starts or ends with a parameter.
      expect(template.body, kind).not.toMatch(/^\{\{|\}\}$/);
      expect(template.body.length, kind).toBeLessThan(1024 - template.params.length * 100);
    }
  });

  test('docs/whatsapp.md tells the owner to register exactly these templates, with these bodies', () => {
    const documented = templatesFromDocs(readFileSync('docs/whatsapp.md', 'utf8'));
    expect(documented).toEqual(
      Object.fromEntries(Object.values(whatsAppTemplates).map((t) => [t.name, { body: t.body, button: true }])),
    );
  });
});
