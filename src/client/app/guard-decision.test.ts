import { describe, expect, test } from 'vitest';
import type { Me } from '../../common/session.ts';
import { guardDecision } from './guard-decision.ts';

const student: Me = {
  id: 'u1',
  name: 'Thandi Mokoena',
  email: 'thandi@example.com',
  emailVerified: true,
  role: 'student',
  categories: [],
};

describe('who sees a page for signed-in people', () => {
  test('while the session is being found out, the page waits and sends no one away', () => {
    expect(
      guardDecision({ session: { status: 'loading', me: undefined }, wasSignedIn: false, redirectTo: '/' }),
    ).toEqual({ kind: 'wait' });
  });

  test('a visitor arriving signed out goes to the home page, and comes back here after logging in', () => {
    expect(
      guardDecision({ session: { status: 'signed-out', me: undefined }, wasSignedIn: false, redirectTo: '/' }),
    ).toEqual({ kind: 'redirect', to: '/', remember: true });
  });

  test('a visitor arriving at the profile signed out goes to the login page, and comes back after logging in', () => {
    expect(
      guardDecision({ session: { status: 'signed-out', me: undefined }, wasSignedIn: false, redirectTo: '/login' }),
    ).toEqual({ kind: 'redirect', to: '/login', remember: true });
  });

  test('a visitor is sent to the usual place even if an earlier log-out named another', () => {
    expect(
      guardDecision({
        session: { status: 'signed-out', me: undefined, leaveTo: '/goodbye' },
        wasSignedIn: false,
        redirectTo: '/login',
      }),
    ).toEqual({ kind: 'redirect', to: '/login', remember: true });
  });

  test('a user who logs out or deletes their account on the page goes where the sign-out says, and nothing is remembered', () => {
    expect(
      guardDecision({
        session: { status: 'signed-out', me: undefined, leaveTo: '/' },
        wasSignedIn: true,
        redirectTo: '/login',
      }),
    ).toEqual({ kind: 'redirect', to: '/', remember: false });
  });

  test('a page shown from what this device knew, whose session turns out to have run out, is left as a visitor would be', () => {
    expect(
      guardDecision({ session: { status: 'signed-out', me: undefined }, wasSignedIn: true, redirectTo: '/login' }),
    ).toEqual({ kind: 'redirect', to: '/login', remember: true });
  });

  test('a signed-in user sees the page', () => {
    expect(
      guardDecision({ session: { status: 'signed-in', me: student }, wasSignedIn: true, redirectTo: '/' }),
    ).toEqual({ kind: 'show' });
  });

  test('a session that ended on the page keeps the page, and what was typed on it', () => {
    expect(guardDecision({ session: { status: 'expired', me: student }, wasSignedIn: true, redirectTo: '/' })).toEqual({
      kind: 'show',
    });
  });
});

describe('who sees a page for one role', () => {
  test('someone of another role is told the page is not for them', () => {
    expect(
      guardDecision({
        session: { status: 'signed-in', me: student },
        wasSignedIn: true,
        role: 'admin',
        redirectTo: '/',
      }),
    ).toEqual({ kind: 'forbidden' });
  });

  test('someone of the role sees the page', () => {
    const tutor: Me = { ...student, role: 'tutor', categories: ['Mathematics'] };
    expect(
      guardDecision({ session: { status: 'signed-in', me: tutor }, wasSignedIn: true, role: 'tutor', redirectTo: '/' }),
    ).toEqual({ kind: 'show' });
  });

  test('an ended session of another role still is not shown the page', () => {
    expect(
      guardDecision({ session: { status: 'expired', me: student }, wasSignedIn: true, role: 'tutor', redirectTo: '/' }),
    ).toEqual({ kind: 'forbidden' });
  });

  test('a visitor is sent away before any role is checked, and comes back after logging in', () => {
    expect(
      guardDecision({
        session: { status: 'signed-out', me: undefined },
        wasSignedIn: false,
        role: 'admin',
        redirectTo: '/',
      }),
    ).toEqual({ kind: 'redirect', to: '/', remember: true });
  });
});
