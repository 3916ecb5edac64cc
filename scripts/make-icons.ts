import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';

/**
 * Renders the PWA and Apple icons from `favicon.svg`, the one source of the logo, with Debian's Chromium:
 * `node scripts/make-icons.ts`. Re-run it after changing the favicon and commit the PNGs.
 *
 * - icon-192/512 ("any"): the favicon as drawn, transparent outside its rounded corners.
 * - maskable-512: full-bleed teal, no transparency, the mortarboard inside the central 80 % safe zone
 *   (https://web.dev/articles/maskable-icon), since the launcher crops it to its own shape.
 * - apple-touch-icon (180): opaque and square: iOS rounds the corners itself and shows transparent
 *   pixels as black.
 */
const publicDir = path.resolve('public');
const favicon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');

// The favicon is a 64×64 viewBox: one background <rect>, then the symbol.
const match = /^(<svg[^>]*>)\s*<rect[^>]*fill="(#[0-9a-fA-F]{3,6})"[^>]*\/>([\s\S]*)<\/svg>\s*$/.exec(favicon);
if (!match) throw new Error('favicon.svg: expected <svg><rect fill="#…"/>symbol…</svg>');
const [, , background, symbol] = match as unknown as [string, string, string, string];

// The symbol's bounding box in viewBox units (the tassel's stroke included), for centring it.
const symbolBox = { x1: 14, y1: 13, x2: 51.5, y2: 44 };
const symbolCentre = { x: (symbolBox.x1 + symbolBox.x2) / 2, y: (symbolBox.y1 + symbolBox.y2) / 2 };

/** A square, full-bleed version with the symbol centred at `scale` of its favicon size. */
function fullBleed(scale: number) {
  const { x, y } = symbolCentre;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${background}"/>` +
    `<g transform="translate(32 32) scale(${scale}) translate(${-x} ${-y})">${symbol}</g></svg>`
  );
}

// The symbol's farthest corner from its centre must stay inside the safe circle (radius 0.4 × size).
const halfDiagonal = Math.hypot(symbolBox.x2 - symbolCentre.x, symbolBox.y2 - symbolCentre.y);
const maskableScale = 0.9;
if (halfDiagonal * maskableScale > 0.4 * 64) throw new Error('maskable icon: the symbol leaves the safe zone');

const icons = [
  { file: 'icons/icon-192.png', size: 192, svg: favicon, transparent: true },
  { file: 'icons/icon-512.png', size: 512, svg: favicon, transparent: true },
  { file: 'icons/maskable-512.png', size: 512, svg: fullBleed(maskableScale), transparent: false },
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(1), transparent: false },
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const icon of icons) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    const sized = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    const png = await page.locator('svg').screenshot({ omitBackground: icon.transparent });
    const out = path.join(publicDir, icon.file);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, png);
    console.log(`${path.relative(process.cwd(), out)} ${icon.size}×${icon.size}`);
  }
} finally {
  await browser.close();
}
