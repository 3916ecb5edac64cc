/**
 * Static text of the home page (spec §1, §9): claims, promo, FAQ and services. Brand name, phone and e-mail are
 * not here: they come from common/brand.ts; the testimonials are the admin's (common/testimonials-seed.ts).
 */

/** Spec §1 home page claims, word for word. */
export const homeClaims = [
  'Rates as low as R80/hour',
  'A once-off monthly payment is cheaper',
  'Reschedule with at least 24 hours notice',
  'Group sessions offered',
  'Payment by EFT',
  'Pay only when booking',
] as const;

/** Spec §1 home page promo; spec §9: live session fee R100. */
export const promo = {
  module: 'COMP102',
  title: 'Live COMP102 session',
  day: 'Friday the 12th',
  time: '16:00-19:00 SAST',
  fee: 'R100',
  agenda: ['Hour one: practice test', 'Then: 2D arrays and OOP'],
} as const;

export type Service = { title: string; text: string; icon: 'code' | 'laptop' | 'stats' | 'maths' };

/** Spec §1: programming, IT, statistics and mathematics. */
export const services: readonly Service[] = [
  {
    title: 'Programming',
    text: 'Python and Java, from your first program to OOP, GUIs, data structures and algorithms.',
    icon: 'code',
  },
  {
    title: 'Information Technology',
    text: 'Databases, SQL and information systems modules such as ISTN212.',
    icon: 'laptop',
  },
  {
    title: 'Statistics',
    text: 'Descriptive statistics, probability, distributions and hypothesis testing.',
    icon: 'stats',
  },
  { title: 'Mathematics', text: 'Calculus, linear algebra and FET Mathematics for Grades 10 to 12.', icon: 'maths' },
];

export const howItWorks = [
  { title: 'Create your free account', text: 'Sign up with your e-mail address or Google and verify your e-mail.' },
  {
    title: 'Choose a module and book',
    text: 'Pick your course, give three times that suit you and tell us which concepts you need help with.',
  },
  {
    title: 'Get your confirmed time',
    text: 'Your tutor confirms one of your times. Pay by EFT for the session you booked.',
  },
  {
    title: 'Learn and improve',
    text: 'Work through your questions one-on-one or in a group, and keep asking on the community board.',
  },
] as const;

export type Faq = { question: string; answer: string };

export const faqs: readonly Faq[] = [
  {
    question: 'How much does a session cost?',
    answer:
      'Rates as low as R80/hour, depending on the module (R80 to R100 per hour). A once-off monthly payment is cheaper than paying per session.',
  },
  {
    question: 'How do I pay?',
    answer: 'Payment by EFT. You pay only when booking, so there is no sign-up fee and no subscription.',
  },
  {
    question: 'Can I reschedule a session?',
    answer:
      'Yes. Reschedule with at least 24 hours notice. Cancellations later than 24 hours before the session are billed at 50% of the fee.',
  },
  {
    question: 'Do you offer group sessions?',
    answer:
      'Yes, group sessions are offered by arrangement. They are a good way to prepare for a test with classmates and share the cost.',
  },
  {
    question: 'How far ahead should I book?',
    answer: 'Please book at least 48 hours in advance so that a tutor can confirm one of your preferred times.',
  },
  {
    question: 'Which subjects can I get help with?',
    answer:
      'Programming, IT, statistics and mathematics, for university modules and for FET (Grades 10 to 12) learners.',
  },
];
