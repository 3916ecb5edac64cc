import { describe, expect, test } from 'vitest';
import { asLineFeeds, isMultiLine, isOneLine } from './validation.ts';

describe('what free text may hold', () => {
  const plain = ['Naledi Khumalo', 'Zoë O’Brien-Ndlovu', 'Ἀθηνᾶ', 'محمد', '李小龙', 'C# & Java: 100% $` $&', '🙂'];
  // Characters a line of text never needs: they break lines, or reorder what is shown.
  const controls = {
    NUL: '\u0000',
    'line feed': '\n',
    'carriage return': '\r',
    tab: '\t',
    escape: '\u001b',
    DEL: '\u007f',
    'next line (C1)': '\u0085',
    'line separator': '\u2028',
    'paragraph separator': '\u2029',
    'left-to-right embedding': '\u202A',
    'right-to-left override': '\u202E',
    'right-to-left isolate': '\u2067',
    'pop directional isolate': '\u2069',
  };

  test('plain text of any script passes both rules', () => {
    for (const text of plain) {
      expect(isOneLine(text), text).toBe(true);
      expect(isMultiLine(text), text).toBe(true);
    }
  });

  test.each(Object.entries(controls))('one line holds no %s', (_, c) => {
    expect(isOneLine(`before${c}after`)).toBe(false);
  });

  test.each(Object.entries(controls))('several lines hold a %s only if it is a line feed or a tab', (name, c) => {
    expect(isMultiLine(`before${c}after`)).toBe(name === 'line feed' || name === 'tab');
  });

  test("Windows' and old Macs' line breaks become line feeds", () => {
    expect(asLineFeeds('a\r\nb\rc\nd')).toBe('a\nb\nc\nd');
  });
});
