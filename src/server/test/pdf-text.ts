import { extractText, getDocumentProxy } from 'unpdf';

/**
 * A PDF's text, read back as a reader would copy it (pdf.js, through unpdf, offline): the tests check a receipt
 * by what it says, not by its bytes. Pages joined by a new line.
 */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/** Whether the bytes are a PDF at all: its header. */
export const isPdf = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';
