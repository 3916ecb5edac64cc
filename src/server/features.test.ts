import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { features } from './features.ts';

describe('the server’s features', () => {
  test('every module folder is in the one list, once, under its folder’s name', () => {
    const folders = readdirSync(path.join(import.meta.dirname, 'modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(features.map((f) => f.name).sort()).toEqual(folders.sort());
  });

  test('the personal-data parts keep their order: the board’s, the bookings’, the session offers’, then the availability’s, the calendar feed’s and the notices’', () => {
    const parts = features.filter((f) => f.personalData).map((f) => f.name);
    expect(parts).toEqual(['qa', 'bookings', 'sessions', 'availability', 'calendar', 'notices']);
  });
});
