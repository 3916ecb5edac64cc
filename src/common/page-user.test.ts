import { describe, expect, test } from 'vitest';
import { escapeHtml } from './escape-html.ts';
import { fillPage, pageUserMeta, standInUser } from './page-user.ts';
import type { Me } from './session.ts';

const tutor: Me = {
  id: 'u1',
  name: 'Lerato <Tutor>',
  email: 'lerato@example.com',
  emailVerified: true,
  role: 'tutor',
  categories: ['Mathematics', 'Statistics'],
};
const rendered = (role: Me['role']) => {
  const { name, categories } = standInUser(role);
  return `<html><head><title>T</title></head><h1>Welcome, ${name}!</h1><p>${categories.join(', ')}</p><h2>${name}</h2></html>`;
};

describe('a page rendered for a stand-in, filled in for the user', () => {
  test('every marker is replaced, escaped, and the user goes in the head for the app to start with', () => {
    const page = fillPage(rendered('tutor'), tutor)!;
    expect(page).toContain(
      '<h1>Welcome, Lerato &lt;Tutor&gt;!</h1><p>Mathematics, Statistics</p><h2>Lerato &lt;Tutor&gt;</h2>',
    );
    expect(page).not.toContain('%user.');
    const meta = new RegExp(`<meta name="${pageUserMeta}" content="([^"]*)"></head>`).exec(page)?.[1];
    expect(meta).toContain('&quot;name&quot;:&quot;Lerato &lt;Tutor&gt;&quot;');
  });

  test("a name with `$&` or `$'` is put in as written, not read as a replacement pattern", () => {
    const page = fillPage(rendered('student'), { ...tutor, role: 'student', name: "Zola $& $' $`" })!;
    expect(page).toContain('<h1>Welcome, Zola $&amp; $&#39; $`!</h1>');
    expect(page.match(/<h1>/g)).toHaveLength(1);
  });

  test('a tutor without subjects is not the page rendered for tutors, who have one', () => {
    expect(fillPage(rendered('tutor'), { ...tutor, categories: [] })).toBeUndefined();
    expect(fillPage(rendered('student'), { ...tutor, role: 'student', categories: [] })).toContain('<p></p>');
  });
});

describe('a name with what a replacement string would read as a pattern', () => {
  test.each(['Eve $` end', "Eve $' end", 'Eve $& end', 'Eve $1 end', 'Eve $$ end', 'Eve $<x> end'])(
    '%s stays as typed, in the page and in the user the app starts with',
    (name) => {
      const page = fillPage(rendered('student'), { ...tutor, name, role: 'student', categories: [] })!;
      expect(page).toBe(
        `<html><head><title>T</title><meta name="${pageUserMeta}" content="${escapeHtml(JSON.stringify({ ...tutor, name, role: 'student', categories: [] }))}"></head>` +
          `<h1>Welcome, ${escapeHtml(name)}!</h1><p></p><h2>${escapeHtml(name)}</h2></html>`,
      );
    },
  );
});
