import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { brand, mailtoUrl } from '../../../common/brand.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { cardTitle, pageTitle } from './ui.tsx';

const effectiveDate = { iso: '2025-07-03', display: 'July 3, 2025' } as const;

const emailLink = (
  <a href={mailtoUrl} className="link">
    {brand.email}
  </a>
);

/** What we store, grouped the way a person thinks about it. */
const stored: { title: string; items: ReactNode[] }[] = [
  {
    title: 'Your account',
    items: [
      'Your name and e-mail address, and whether your e-mail address is verified.',
      'A hash of your password. We never store or see the password itself.',
      'If you sign in with Google: your Google account identifier, name and e-mail address.',
    ],
  },
  {
    title: 'Sign-in sessions',
    items: [
      'For each device you are signed in on: the IP address, the browser (user agent) and when the session expires.',
    ],
  },
  {
    title: 'Enrolments and bookings',
    items: [
      'The modules you enrol in.',
      'Your bookings: module, date, three preferred time slots, number of hours, the concepts you want help with, the confirmed time and the status.',
    ],
  },
  {
    title: 'Community board',
    items: ['The questions and answers you post, with your display name, and your votes.'],
  },
  {
    title: 'E-mail delivery log',
    items: [
      'For each e-mail we send you (verification, password reset, booking e-mails): the recipient, subject, time and whether it was delivered.',
    ],
  },
  {
    title: 'On your device',
    items: [
      'So that the app works on a poor connection, it caches data in your browser’s IndexedDB: the module catalogue, testimonials, your bookings, questions and answers, and anything you wrote while offline that has not been sent yet.',
      'Logging out clears this data from the device.',
    ],
  },
];

const retention: { what: string; howLong: string }[] = [
  { what: 'Account data and enrolments', howLong: 'Until you delete your account.' },
  { what: 'Sign-in sessions', howLong: 'Until you log out or the session expires (after 7 days without use).' },
  {
    what: 'Bookings',
    howLong:
      'Kept as a record of sessions while your account exists. When you delete your account, future bookings are cancelled and your personal details are removed from them.',
  },
  {
    what: 'Questions, answers and votes',
    howLong:
      'Until you delete your account. Your posts then stay on the board as “Deleted user” so that discussions still make sense.',
  },
  { what: 'E-mail delivery log', howLong: '90 days.' },
  { what: 'Data cached on your device', howLong: 'Until you log out or clear your browser’s site data.' },
];

const sections: { id: string; title: string; content: ReactNode }[] = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    content: (
      <p>
        {brand.name} is a tutoring service founded by {brand.founder}. We are the responsible party for the personal
        information described here, under South Africa’s Protection of Personal Information Act (POPIA). Questions about
        this policy go to {emailLink}.
      </p>
    ),
  },
  {
    id: 'what-we-store',
    title: 'What we store',
    content: (
      <>
        <p>We only collect what we need to run your account, your bookings and the community board.</p>
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {stored.map((group) => (
            <div key={group.title} className="card">
              <h3 className={cardTitle}>{group.title}</h3>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                {group.items.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className="mt-6">We use cookies only to keep you signed in. There are no advertising or tracking cookies.</p>
      </>
    ),
  },
  {
    id: 'why',
    title: 'Why we use it',
    content: (
      <ul className="list-disc space-y-2 pl-5">
        <li>To create your account, sign you in and keep your account secure.</li>
        <li>
          To arrange your tutoring sessions: tutors see the bookings for their subject so they can confirm a time.
        </li>
        <li>To send you e-mails you need: verification, password reset and booking e-mails.</li>
        <li>To run the community Questions &amp; Answers board.</li>
        <li>To protect the service against abuse, for example by limiting repeated failed sign-in attempts.</li>
      </ul>
    ),
  },
  {
    id: 'how-long',
    title: 'How long we keep it',
    content: (
      <dl className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {retention.map((row) => (
          <div key={row.what} className="grid gap-1 px-5 py-4 sm:grid-cols-[14rem_1fr] sm:gap-4">
            <dt className="font-semibold text-slate-900 dark:text-slate-100">{row.what}</dt>
            <dd>{row.howLong}</dd>
          </div>
        ))}
      </dl>
    ),
  },
  {
    id: 'sharing',
    title: 'Who we share it with',
    content: (
      <>
        <p>
          <strong className="text-slate-900 dark:text-slate-100">We do not sell your personal information</strong>, and
          we do not share it for advertising. We share only what is needed with:
        </p>
        <ul className="mt-3 list-disc space-y-2 pl-5">
          <li>our e-mail provider, which delivers the e-mails we send you;</li>
          <li>Google, only if you choose to sign in with Google;</li>
          <li>the tutor for your subject, who sees your booking details;</li>
          <li>other users of the community board, who see your questions and answers with your display name.</li>
        </ul>
        <p className="mt-3">We may also disclose information when the law requires it.</p>
      </>
    ),
  },
  {
    id: 'children',
    title: 'Children',
    content: (
      <p>
        Children under 13 need the consent of a parent or guardian to use {brand.name}. If you are a parent or guardian
        and believe your child gave us information without your consent, contact us at {emailLink} and we will delete
        it.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights under POPIA',
    content: (
      <>
        <p>Under South Africa’s Protection of Personal Information Act (POPIA) you have the right to:</p>
        <ul className="mt-3 list-disc space-y-2 pl-5">
          <li>know what personal information we hold about you and get a copy of it;</li>
          <li>ask us to correct information that is wrong or out of date;</li>
          <li>ask us to delete your information;</li>
          <li>object to how we use your information;</li>
          <li>
            complain to the Information Regulator of South Africa if you are unhappy with how we handled your
            information.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'export-delete',
    title: 'Download or delete your data',
    content: (
      <ul className="list-disc space-y-2 pl-5">
        <li>
          <strong className="text-slate-900 dark:text-slate-100">Download:</strong> use “Download my data” on the{' '}
          <Link to="/profile" className="link">
            Profile page
          </Link>{' '}
          to get a copy of your account, enrolments, bookings, questions, answers and votes.
        </li>
        <li>
          <strong className="text-slate-900 dark:text-slate-100">Delete:</strong> use “Delete Account” on the{' '}
          <Link to="/profile" className="link">
            Profile page
          </Link>
          . This deletes your account, sign-in sessions and enrolments, cancels your future bookings and removes your
          personal details from them.
        </li>
        <li>You can also e-mail us at {emailLink} and we will help.</li>
      </ul>
    ),
  },
  {
    id: 'security',
    title: 'How we protect it',
    content: (
      <p>
        Passwords are stored only as hashes, the connection to the site is encrypted, and every request is checked on
        the server so that people can only see the data they are allowed to see.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    content: (
      <p>
        If we change this policy, we will update the effective date at the top of this page and tell you about important
        changes by e-mail.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact us',
    content: <p>For any question or request about your personal information, e-mail {emailLink}.</p>,
  },
];

export function PrivacyPage() {
  return (
    <>
      <PageMeta
        title="Privacy Policy"
        description={`What personal information ${brand.name} stores, why, for how long, who it is shared with, and your rights under POPIA.`}
      />

      <div className="bg-linear-to-b from-brand-50 to-slate-50 dark:from-slate-900 dark:to-slate-950">
        <div className="container-page pt-12 pb-8 sm:pt-16 sm:pb-10">
          <h1 className={pageTitle}>Privacy Policy</h1>
          <p className="mt-4 text-slate-700 sm:text-lg dark:text-slate-300">
            Effective date: <time dateTime={effectiveDate.iso}>{effectiveDate.display}</time>
          </p>
          <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
            This policy explains what personal information {brand.name} stores when you use this website, and what you
            can do about it.
          </p>
        </div>
      </div>

      <div className="container-page grid grid-cols-1 gap-10 py-6 lg:grid-cols-[14rem_1fr] lg:py-10">
        <nav
          aria-label="On this page"
          className="rounded-2xl border border-slate-200 bg-white p-4 lg:sticky lg:top-24 lg:self-start lg:border-0 lg:bg-transparent lg:p-0 dark:border-slate-800 dark:bg-slate-900 lg:dark:bg-transparent"
        >
          <p className="text-sm font-medium tracking-wide text-slate-700 uppercase dark:text-slate-300">On this page</p>
          <ul className="mt-2 grid gap-x-4 sm:grid-cols-2 lg:grid-cols-1">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="link inline-flex min-h-11 items-center no-underline hover:underline"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="min-w-0 space-y-10 text-slate-700 dark:text-slate-300">
          {sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-24">
              <h2
                id={`${section.id}-title`}
                className="mb-3 text-2xl font-bold tracking-tight text-slate-900 dark:text-slate-100"
              >
                {section.title}
              </h2>
              {section.content}
            </section>
          ))}
        </div>
      </div>
    </>
  );
}
