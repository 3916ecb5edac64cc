import { describe, expect, test } from 'vitest';
import { calendarEventUrl, whatsAppShareText, whatsAppShareUrl } from './whatsapp-share.ts';

const confirmed = {
  moduleName: 'Java Programming 1',
  date: '2026-12-08',
  confirmedSlot: '14:00',
  hours: 1,
  tutor: { id: 't1', name: 'Sipho Dlamini' },
  status: 'Confirmed' as const,
  totalCents: 18_000,
  priceCentsPerHour: 18_000,
  lateCancellation: false,
  paymentReference: 'TB-ABC234',
  payments: { paidCents: 0, refundedCents: 0, waivedCents: 0 },
  package: null,
};

describe('sharing a confirmed session on WhatsApp', () => {
  test('the text: module, the time in SAST, the tutor, the amount, the reference and a calendar link', () => {
    const text = whatsAppShareText(confirmed)!;
    expect(text.split('\n')).toEqual([
      'My TutorBook session is confirmed:',
      'Java Programming 1',
      'Tue, 08 Dec 2026, 14:00–15:00 SAST',
      'Tutor: Sipho Dlamini',
      'Amount: R180',
      'Payment reference: TB-ABC234',
      `Add it to a calendar: ${calendarEventUrl(confirmed)}`,
    ]);
  });

  test('the calendar link adds the session at its instant, 12:00 UTC for 14:00 SAST, named with its reference', () => {
    const url = new URL(calendarEventUrl({ ...confirmed, hours: 2 }));
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Java Programming 1 (TutorBook)',
      dates: '20261208T120000Z/20261208T140000Z',
      details: 'TutorBook session. Payment reference: TB-ABC234',
      ctz: 'Africa/Johannesburg',
    });
  });

  test('the amount says where the payment stands', () => {
    const amount = (booking: Partial<typeof confirmed> & Record<string, unknown>) =>
      whatsAppShareText({ ...confirmed, ...booking })!
        .split('\n')
        .find((line) => line.startsWith('Amount'));
    expect(amount({ payments: { paidCents: 18_000, refundedCents: 0, waivedCents: 0 } })).toBe('Amount: R180, paid');
    expect(amount({ payments: { paidCents: 10_000, refundedCents: 0, waivedCents: 0 } })).toBe(
      'Amount: R180, R80 still to pay',
    );
    expect(amount({ payments: { paidCents: 0, refundedCents: 0, waivedCents: 18_000 } })).toBe('Amount: R180, waived');
    expect(amount({ totalCents: 27_050, priceCentsPerHour: 13_525, hours: 2 })).toBe('Amount: R270.50');
    expect(
      amount({
        package: { id: 'p', name: '10 hours of Java', coveredMinutes: 60, countedMinutes: 60, leftMinutes: 240 },
      } as never),
    ).toBe('Amount: nothing to pay (my monthly package covers it)');
  });

  test('no tutor named yet: no tutor line', () => {
    expect(whatsAppShareText({ ...confirmed, tutor: null })).not.toContain('Tutor:');
  });

  test('only a confirmed session at a time can be shared', () => {
    for (const status of ['Pending', 'Completed', 'Cancelled'] as const)
      expect(whatsAppShareText({ ...confirmed, status }), status).toBeUndefined();
    expect(whatsAppShareText({ ...confirmed, confirmedSlot: null })).toBeUndefined();
  });

  test('the link opens WhatsApp with the text typed in, every character of it kept', () => {
    const text = whatsAppShareText({ ...confirmed, moduleName: 'C# & .NET: 100% (part 2)?' })!;
    const url = new URL(whatsAppShareUrl(text));
    expect(url.origin + url.pathname).toBe('https://wa.me/');
    expect(url.searchParams.get('text')).toBe(text);
    expect(url.searchParams.size).toBe(1);
  });
});
