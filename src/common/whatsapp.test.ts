import { describe, expect, test } from 'vitest';
import { formatWhatsAppNumber, normaliseWhatsAppNumber, whatsAppMessages, whatsAppNumberSchema } from './whatsapp.ts';

describe('a WhatsApp number, as students type it', () => {
  test.each([
    '082 123 4567',
    '0821234567',
    '082-123-4567',
    '082.123.4567',
    '(082) 123 4567',
    ' 082 123 4567 ',
    '+27 82 123 4567',
    '+27821234567',
    '+27 (0)82 123 4567',
    '+27 (0) 82 123 4567',
    '+27 082 123 4567',
    '0027 82 123 4567',
    '27821234567',
    '27 82 123 4567',
    '082\u00a0123\u00a04567',
  ])('%j is 27821234567, as the Cloud API takes it', (typed) => {
    expect(normaliseWhatsAppNumber(typed)).toEqual({ ok: true, number: '27821234567' });
  });

  test('every mobile range passes: 06…, 07…, 081 to 085', () => {
    for (const [typed, number] of [
      ['060 123 4567', '27601234567'],
      ['061 000 0000', '27610000000'],
      ['071 234 5678', '27712345678'],
      ['079 999 9999', '27799999999'],
      ['081 234 5678', '27812345678'],
      ['084 123 4567', '27841234567'],
      ['085 123 4567', '27851234567'],
    ])
      expect(normaliseWhatsAppNumber(typed!), typed).toEqual({ ok: true, number });
  });

  test.each([
    ['', whatsAppMessages.numberRequired],
    ['   ', whatsAppMessages.numberRequired],
    ['082 123 456', whatsAppMessages.numberInvalid],
    ['082 123 45678', whatsAppMessages.numberInvalid],
    ['82 123 4567', whatsAppMessages.numberInvalid],
    ['+27 82 123 456', whatsAppMessages.numberInvalid],
    ['2782123456', whatsAppMessages.numberInvalid],
    ['082 CALL NOW', whatsAppMessages.numberInvalid],
    ['082 123 4567 ext 2', whatsAppMessages.numberInvalid],
    ['++27821234567', whatsAppMessages.numberInvalid],
    ['082+1234567', whatsAppMessages.numberInvalid],
    ['thandi@example.com', whatsAppMessages.numberInvalid],
    ['+44 7700 900123', whatsAppMessages.numberNotSouthAfrican],
    ['+263 77 123 4567', whatsAppMessages.numberNotSouthAfrican],
    ['00263771234567', whatsAppMessages.numberNotSouthAfrican],
    ['011 123 4567', whatsAppMessages.numberNotMobile],
    ['021 123 4567', whatsAppMessages.numberNotMobile],
    ['+27 11 123 4567', whatsAppMessages.numberNotMobile],
    ['0800 123 456', whatsAppMessages.numberNotMobile],
    ['086 123 4567', whatsAppMessages.numberNotMobile],
    ['087 123 4567', whatsAppMessages.numberNotMobile],
  ])('%j is refused: %s', (typed, message) => {
    expect(normaliseWhatsAppNumber(typed)).toEqual({ ok: false, message });
  });

  test('the form’s schema gives the same number, or the same message', () => {
    expect(whatsAppNumberSchema.parse('+27 (0)82 123 4567')).toBe('27821234567');
    const refused = whatsAppNumberSchema.safeParse('011 123 4567');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([whatsAppMessages.numberNotMobile]);
    expect(whatsAppNumberSchema.safeParse(undefined).error?.issues[0]?.message).toBe(whatsAppMessages.numberRequired);
  });

  test('a number reads back as +27 82 123 4567', () => {
    expect(formatWhatsAppNumber('27821234567')).toBe('+27 82 123 4567');
    // Normalising what it shows gives the number again.
    expect(normaliseWhatsAppNumber(formatWhatsAppNumber('27821234567'))).toEqual({ ok: true, number: '27821234567' });
  });
});
