import { describe, expect, it } from 'vitest';
import { receiptNumber } from '../../common/receipts.ts';
import { isPdf, pdfText } from '../test/pdf-text.ts';
import { printable, renderReceiptPdf, type ReceiptDocument } from './receipt-pdf.ts';

const paymentId = '0f1e2d3c-4b5a-4987-8654-3210fedcba98';

const receipt: ReceiptDocument = {
  number: receiptNumber(paymentId),
  paymentId,
  issuedAt: '2026-12-03T21:30:00.000Z',
  paidOn: '2026-12-02',
  business: { name: 'TutorBook', email: 'hello@tutorbook.co.za', phone: '+27 71 234 5678' },
  payer: { name: 'Zoë van der Merwe', email: 'zoe@example.com' },
  lines: [
    {
      description: 'Mathematics',
      detail: 'Thu, 10 Dec 2026, 10:00 SAST, 2 hours, reference TB-7K2M9Q',
      amountCents: 36_000,
    },
    { description: 'Package: 10 hours of Statistics, December 2026', amountCents: 90_050 },
  ],
  method: 'By EFT',
  reference: 'TB-7K2M9Q',
  accent: '#0f766e',
};

describe('a receipt as a PDF', () => {
  it('says who was paid, by whom, for what, how much, and that the business is not VAT registered', async () => {
    const bytes = await renderReceiptPdf(receipt);
    expect(isPdf(bytes)).toBe(true);
    const text = await pdfText(bytes);
    for (const expected of [
      'TutorBook',
      'hello@tutorbook.co.za',
      '+27 71 234 5678',
      'Not VAT registered',
      'Receipt number: R-0F1E-2D3C-4B5A',
      // Recorded at 23:30 SAST on the 3rd: the receipt is dated in SAST, not UTC.
      'Date: Thu, 03 Dec 2026',
      'Received from: Zoë van der Merwe (zoe@example.com)',
      'Paid on: Wed, 02 Dec 2026',
      'Method: By EFT',
      'Reference: TB-7K2M9Q',
      'Mathematics',
      'Thu, 10 Dec 2026, 10:00 SAST, 2 hours, reference TB-7K2M9Q',
      'R360',
      'Package: 10 hours of Statistics, December 2026',
      'R900.50',
      'Total paid',
      'R1260.50',
      paymentId,
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('VAT number');
  });

  it('gives the VAT number instead when one is configured', async () => {
    const text = await pdfText(
      await renderReceiptPdf({ ...receipt, business: { ...receipt.business, vatNumber: '4123456789' } }),
    );
    expect(text).toContain('VAT number: 4123456789');
    expect(text).not.toContain('Not VAT registered');
  });

  it('is the same bytes each time it is made from the same payment', async () => {
    const [a, b] = await Promise.all([renderReceiptPdf(receipt), renderReceiptPdf(receipt)]);
    expect(Buffer.compare(a, b)).toBe(0);
  });

  it('never prints a letter its font lacks as another one', async () => {
    expect(printable('Zoë Nguyễn Łukasz 李')).toBe('Zoë Nguyen Lukasz ?');
    const text = await pdfText(await renderReceiptPdf({ ...receipt, payer: { name: 'Nguyễn Thị Łan 李' } }));
    expect(text).toContain('Received from: Nguyen Thi Lan ?');
  });
});
