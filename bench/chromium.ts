import { chromium } from '@playwright/test';

/**
 * What the benches that drive a browser share: Debian's Chromium with the flags of playwright.config.ts
 * (headless, nothing fetched from outside), and the plain table they print their figures in.
 */
export const launchChromium = (extraArgs: string[] = []) =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** Columns padded to their widest cell: the first to the left, the figures to the right. */
export function table(header: string[], body: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}
