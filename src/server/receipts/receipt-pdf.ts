import PDFDocument from 'pdfkit';
import { formatRand } from '../../common/money.ts';
import { receiptMessages } from '../../common/receipts.ts';
import { formatSastDate, sastDate } from '../../common/sast.ts';

/**
 * A receipt as a PDF (issue 37 §4, docs/decisions/0055), with pdfkit on the server. It knows no booking: a receipt
 * is a business, a payer and lines, each a description and an amount, so a session, a group seat or a month's
 * package ("Package: 10 hours of Mathematics, December 2026") is one line alike. The bookings module says what
 * the lines are.
 */

export interface ReceiptLine {
  /** What was paid for, one line: "Mathematics". */
  description: string;
  /** A second line under it: "Thu, 03 Dec 2026, 10:00 SAST, 2 hours, reference TB-7K2M9Q". */
  detail?: string;
  /** The part of the payment that went to it, in cents. */
  amountCents: number;
}

export interface ReceiptDocument {
  /** `receiptNumber(payment id)`: common/receipts.ts. */
  number: string;
  /** The payment's own id, printed small: the number's source, whole. */
  paymentId: string;
  /** UTC ISO: when the payment was recorded, the receipt's date (and the PDF's, so the same bytes each time). */
  issuedAt: string;
  /** `YYYY-MM-DD`, SAST: when the money moved. */
  paidOn: string;
  business: { name: string; email: string; phone: string; vatNumber?: string | undefined };
  payer: { name: string; email?: string | undefined };
  lines: readonly ReceiptLine[];
  /** "By EFT", "From the bank statement", … */
  method: string;
  /** What the money quoted: a `TB-` reference; empty when it quoted none. */
  reference: string;
  /** In the brand's colour: the business's name and the title. */
  accent: string;
}

/**
 * pdfkit's built-in fonts (Helvetica), which cost no font file, write Windows-1252 (WinAnsi) only: a character
 * outside it comes out as another one. Letters with accents it lacks lose them (ễ → e); anything else
 * becomes "?", so a name is never printed wrong in silence. Embedding a Unicode font is the way out, if names
 * in other scripts ever need printing.
 */
const winAnsiExtras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const isWinAnsi = (ch: string) => {
  const code = ch.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(ch);
};
const nearest: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', '\t': ' ' };

export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    if (isWinAnsi(ch)) out += ch;
    else if (nearest[ch]) out += nearest[ch];
    else {
      const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += [...bare].every(isWinAnsi) && bare ? bare : '?';
    }
  }
  return out;
}

const page = { width: 595.28, margin: 56 };
const inner = page.width - 2 * page.margin;
const amountWidth = 110;
const ink = '#1f2937';
const muted = '#4b5563';
const rule = '#d1d5db';

/** The receipt's PDF bytes: A4, one page for any ordinary receipt (pdfkit adds pages when the lines run on). */
export function renderReceiptPdf(receipt: ReceiptDocument): Promise<Buffer> {
  const issued = new Date(receipt.issuedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: page.margin,
    info: {
      Title: printable(`${receiptMessages.title} ${receipt.number}`),
      Author: printable(receipt.business.name),
      Subject: printable(`${receiptMessages.title} for ${receipt.payer.name}`),
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = (value: string) => printable(value);
  const left = page.margin;

  // The business: name, contact, VAT standing.
  const { business } = receipt;
  doc.font('Helvetica-Bold').fontSize(20).fillColor(receipt.accent).text(text(business.name), left, page.margin);
  doc.font('Helvetica').fontSize(10).fillColor(muted);
  doc.text(text(`${business.email} · WhatsApp ${business.phone}`));
  doc.text(business.vatNumber ? receiptMessages.vatNumber(business.vatNumber) : receiptMessages.notVatRegistered);

  // What this is.
  doc.moveDown(1.5);
  doc.font('Helvetica-Bold').fontSize(16).fillColor(ink).text(receiptMessages.title);
  doc.moveDown(0.3);
  const fact = (term: string, value: string) => {
    doc.font('Helvetica-Bold').fontSize(10).fillColor(ink).text(`${term}: `, { continued: true });
    doc.font('Helvetica').text(text(value));
  };
  fact('Receipt number', receipt.number);
  fact('Date', formatSastDate(sastDate(issued)));
  fact('Received from', receipt.payer.email ? `${receipt.payer.name} (${receipt.payer.email})` : receipt.payer.name);
  fact('Paid on', formatSastDate(receipt.paidOn));
  fact('Method', receipt.method);
  fact('Reference', receipt.reference || 'none quoted');

  // The lines, then the total.
  doc.moveDown(1);
  const head = doc.y;
  doc.font('Helvetica-Bold').fontSize(10).fillColor(muted);
  doc.text('For', left, head, { width: inner - amountWidth });
  doc.text('Amount', left + inner - amountWidth, head, { width: amountWidth, align: 'right' });
  const line = (y: number) =>
    doc
      .moveTo(left, y)
      .lineTo(left + inner, y)
      .lineWidth(0.75)
      .strokeColor(rule)
      .stroke();
  line(doc.y + 4);
  doc.y += 10;
  for (const item of receipt.lines) {
    const top = doc.y;
    doc.font('Helvetica').fontSize(11).fillColor(ink);
    doc.text(text(item.description), left, top, { width: inner - amountWidth - 12 });
    if (item.detail)
      doc
        .fontSize(9)
        .fillColor(muted)
        .text(text(item.detail), { width: inner - amountWidth - 12 });
    const bottom = doc.y;
    doc
      .fontSize(11)
      .fillColor(ink)
      .text(formatRand(item.amountCents), left + inner - amountWidth, top, { width: amountWidth, align: 'right' });
    doc.y = Math.max(bottom, doc.y) + 8;
  }
  line(doc.y);
  doc.y += 8;
  const totalCents = receipt.lines.reduce((sum, item) => sum + item.amountCents, 0);
  const totalTop = doc.y;
  doc.font('Helvetica-Bold').fontSize(12).fillColor(ink).text('Total paid', left, totalTop);
  doc.text(formatRand(totalCents), left + inner - amountWidth, totalTop, { width: amountWidth, align: 'right' });

  // The fine print: whose payment, and the business's standing once more at the foot.
  doc.moveDown(2);
  doc.font('Helvetica').fontSize(9).fillColor(muted);
  doc.text(`Payment ${receipt.paymentId}. Thank you for learning with ${text(business.name)}.`, left, doc.y, {
    width: inner,
  });
  doc.end();
  return done;
}
