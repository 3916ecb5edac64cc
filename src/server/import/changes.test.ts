import { describe, expect, test } from 'vitest';
import { compareRecord, entryChanged, fingerprint, printsOf } from './changes.ts';

/** The rule that tells which side changed what since the last import (decision 0037), apart from any engine. */
describe('which side changed a record since the last import', () => {
  const lastImport = { status: 'Pending', confirmedSlot: null, hours: 2 };
  const entry = { old: printsOf(lastImport), ours: printsOf(lastImport) };
  const compare = (old: Record<string, unknown>, ours: Record<string, unknown>) =>
    compareRecord({ entry, old, ours, mapped: old, changeableHere: ['status', 'confirmedSlot'] });

  test('nothing changed: nothing to take', () => {
    expect(compare(lastImport, lastImport)).toEqual({ fromOld: [], bothSides: [], untracked: false });
  });

  test('changed on the old site only: its values are taken', () => {
    const old = { status: 'Confirmed', confirmedSlot: '14:00', hours: 2 };
    expect(compare(old, lastImport)).toEqual({
      fromOld: ['status', 'confirmedSlot'],
      bothSides: [],
      untracked: false,
    });
  });

  test('changed here only: nothing is taken, ours stays', () => {
    expect(compare(lastImport, { ...lastImport, status: 'Cancelled' })).toEqual({
      fromOld: [],
      bothSides: [],
      untracked: false,
    });
  });

  test('the same field changed on both sides: the old site’s is taken, and it is named', () => {
    const old = { status: 'Confirmed', confirmedSlot: '14:00', hours: 2 };
    expect(compare(old, { ...lastImport, status: 'Cancelled' })).toEqual({
      fromOld: ['status', 'confirmedSlot'],
      bothSides: ['status'],
      untracked: false,
    });
  });

  test('the same change made on both sides: nothing to take, nothing to name', () => {
    const both = { ...lastImport, status: 'Cancelled' };
    expect(compare(both, both)).toEqual({ fromOld: [], bothSides: [], untracked: false });
  });

  test('different fields changed on each side: both kept, nothing to name', () => {
    expect(compare({ ...lastImport, hours: 3 }, { ...lastImport, status: 'Cancelled' })).toEqual({
      fromOld: ['hours'],
      bothSides: [],
      untracked: false,
    });
  });

  test('a record imported before the ledger: compared directly, a difference in a field changeable here named', () => {
    const old = { status: 'Confirmed', confirmedSlot: '14:00', hours: 3 };
    const ours = { status: 'Pending', confirmedSlot: null, hours: 2 };
    expect(
      compareRecord({ entry: undefined, old, ours, mapped: old, changeableHere: ['status', 'confirmedSlot'] }),
    ).toEqual({
      fromOld: ['status', 'confirmedSlot', 'hours'],
      bothSides: ['status', 'confirmedSlot'],
      untracked: true,
    });
    expect(
      compareRecord({ entry: undefined, old: ours, ours, mapped: ours, changeableHere: ['status'] }),
    ).toMatchObject({ fromOld: [], bothSides: [] });
  });

  test('a set (enrolments): a name the old site added or removed is a field that changed', () => {
    const before = { calculus: true, physics: true };
    const tracked = { old: printsOf(before), ours: printsOf(before) };
    const now = { calculus: true, statistics: true };
    const { fromOld } = compareRecord({ entry: tracked, old: now, ours: before, mapped: now, changeableHere: [] });
    expect(fromOld.sort()).toEqual(['physics', 'statistics']);
  });

  test('fingerprints are short and tell values apart; an entry is written again only when it would change', () => {
    expect(fingerprint('a')).toHaveLength(12);
    expect(fingerprint(1)).not.toBe(fingerprint('1'));
    expect(fingerprint(undefined)).toBe(fingerprint(null));
    const stored = { kind: 'bookings' as const, oldId: 'b1', ourId: 'b1', ...entry, importedAt: '2026-12-01' };
    expect(entryChanged(stored, { ...stored })).toBe(false);
    expect(entryChanged(stored, { ...stored, ours: printsOf({ ...lastImport, hours: 3 }) })).toBe(true);
    expect(entryChanged(undefined, stored)).toBe(true);
  });
});
