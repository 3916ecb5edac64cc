import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  centsOf,
  isFromHosts,
  isSignedBy,
  noticeHosts,
  payFastAmount,
  payFastEncode,
  readNotice,
  signedCheckout,
} from './payfast.ts';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const settings = {
  merchantId: '10000100',
  merchantKey: '46f0cd694581a',
  passphrase: 'jt7NOE43FZPn',
  url: 'https://sandbox.payfast.co.za',
};

describe('PayFast’s signature, as PayFast documents it', () => {
  test('values are encoded as PHP’s urlencode does: spaces as +, upper-case hex, only - _ . left as they are', () => {
    expect(payFastEncode("Thandi's R180 ~ (maths)*! a-b_c.d")).toBe('Thandi%27s+R180+%7E+%28maths%29%2A%21+a-b_c.d');
    expect(payFastEncode('https://tutorbook.co.za/student-dashboard?payfast=paid')).toBe(
      'https%3A%2F%2Ftutorbook.co.za%2Fstudent-dashboard%3Fpayfast%3Dpaid',
    );
    expect(payFastEncode('Ngiyabonga é')).toBe('Ngiyabonga+%C3%A9');
  });

  test('the checkout is signed over its fields in PayFast’s order, empty ones left out, with the passphrase', () => {
    const form = signedCheckout(settings, {
      item_name: 'Test Product',
      amount: '100.00',
      name_last: '',
      m_payment_id: 'TB-ABC234',
    });
    expect(form.action).toBe('https://sandbox.payfast.co.za/eng/process');
    expect(form.fields.map(([name]) => name)).toEqual([
      'merchant_id',
      'merchant_key',
      'm_payment_id',
      'amount',
      'item_name',
      'signature',
    ]);
    const signed =
      'merchant_id=10000100&merchant_key=46f0cd694581a&m_payment_id=TB-ABC234&amount=100.00&item_name=Test+Product';
    const signature = md5(`${signed}&passphrase=jt7NOE43FZPn`);
    expect(form.fields.at(-1)![1]).toBe(signature);
    expect(form.url).toBe(`https://sandbox.payfast.co.za/eng/process?${signed}&signature=${signature}`);
  });

  test('a notice is checked over its fields as they came, empty ones included, up to its signature', () => {
    const signed =
      'm_payment_id=TB-ABC234&pf_payment_id=1089250&payment_status=COMPLETE&item_description=&amount_gross=180.00';
    const body = `${signed}&signature=${md5(`${signed}&passphrase=jt7NOE43FZPn`)}`;
    const notice = readNotice(body);
    expect(notice.signed).toBe(signed);
    expect(notice.fields.get('amount_gross')).toBe('180.00');
    expect(isSignedBy(notice, 'jt7NOE43FZPn')).toBe(true);
    expect(isSignedBy(notice, 'another passphrase')).toBe(false);
    expect(isSignedBy(readNotice(body.replace('180.00', '18.00')), 'jt7NOE43FZPn')).toBe(false);
    expect(isSignedBy(readNotice(signed), 'jt7NOE43FZPn')).toBe(false);
    expect(isSignedBy(readNotice(`${signed}&signature=xyz`), 'jt7NOE43FZPn')).toBe(false);
  });

  test('amounts: cents to PayFast’s rands and back; anything else is no amount', () => {
    expect(payFastAmount(18_000)).toBe('180.00');
    expect(payFastAmount(5)).toBe('0.05');
    expect([centsOf('180.00'), centsOf('180.5'), centsOf('-4.60'), centsOf('7')]).toEqual([18_000, 18_050, -460, 700]);
    for (const bad of ['', '1e3', '180.001', 'R180', '180,00', ' 180.00', undefined])
      expect(centsOf(bad)).toBeUndefined();
  });

  test('notices come from PayFast’s hosts for PayFast’s URLs, else from the configured host alone', async () => {
    expect(noticeHosts(settings)).toEqual([
      'www.payfast.co.za',
      'w1w.payfast.co.za',
      'w2w.payfast.co.za',
      'sandbox.payfast.co.za',
    ]);
    expect(noticeHosts({ ...settings, url: 'http://127.0.0.1:5066' })).toEqual(['127.0.0.1']);
    expect(await isFromHosts('127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(await isFromHosts('::ffff:127.0.0.1', ['127.0.0.1'])).toBe(true);
    expect(await isFromHosts('203.0.113.9', ['127.0.0.1'])).toBe(false);
    expect(await isFromHosts('unknown', ['127.0.0.1'])).toBe(false);
    expect(await isFromHosts('127.0.0.1', ['localhost'])).toBe(true);
  });
});
