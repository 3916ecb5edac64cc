import { describe, expect, test } from 'vitest';
import { isKnownPagePath, publicPaths, signedInPaths } from './routes.ts';

describe('isKnownPagePath', () => {
  test('knows every public and signed-in page of the spec', () => {
    expect([...publicPaths]).toEqual([
      '/',
      '/home',
      '/signup',
      '/login',
      '/verify_login',
      '/change-password',
      '/about',
      '/testimonials',
      '/privacy-policy',
      '/qa',
    ]);
    expect([...signedInPaths]).toEqual([
      '/offers',
      '/profile',
      '/booking',
      '/student-dashboard',
      '/tutor-dashboard',
      '/admin-dashboard',
    ]);
    for (const path of [...publicPaths, ...signedInPaths]) expect(isKnownPagePath(path), path).toBe(true);
  });

  test('no page is both public and signed-in', () => {
    expect(publicPaths.filter((p) => (signedInPaths as readonly string[]).includes(p))).toEqual([]);
  });

  test('ignores one trailing slash', () => {
    expect(isKnownPagePath('/login/')).toBe(true);
    expect(isKnownPagePath('/admin-dashboard/')).toBe(true);
    expect(isKnownPagePath('/')).toBe(true);
  });

  test('knows module pages by their slug', () => {
    expect(isKnownPagePath('/modules/intro-to-python')).toBe(true);
    expect(isKnownPagePath('/modules/calculus-2')).toBe(true);
    expect(isKnownPagePath('/modules/calculus-2/')).toBe(true);
  });

  test.each([
    '/modules',
    '/modules/',
    '/modules/Intro_To_Python',
    '/modules/a/b',
    '/modules/..',
    '/nope',
    '/Login',
    '/login//',
    '/api/health',
    '/index.html',
    '',
  ])('%j is not a page', (path) => {
    expect(isKnownPagePath(path)).toBe(false);
  });
});
