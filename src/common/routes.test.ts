import { describe, expect, test } from 'vitest';
import { isKnownPagePath, publicPaths, questionPath, signedInPaths } from './routes.ts';

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
      '/availability',
      '/notifications',
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

  test("knows a question's own address, whatever its id (the server says 404 for one that is not there)", () => {
    expect(isKnownPagePath(questionPath('0b7c1f9e-3a4d-4c2b-9f1e-2d3c4b5a6978'))).toBe(true);
    expect(isKnownPagePath(questionPath('a b/c'))).toBe(true);
  });

  test.each([
    '/qa/a/b',
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
