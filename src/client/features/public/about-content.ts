// The About page's own text, apart from content.ts so that the home page does not load it.

/** Spec §2 /about: modules covered in the second semester. */
export const secondSemesterModules = [
  'COMP102',
  'COMP107',
  'COMP201',
  'MATHS130',
  'MATHS140',
  'MATHS195',
  'MATHS196',
  'MATHS246',
  'ISTN212',
  'STATS130',
] as const;

export type RuleGroup = {
  title: string;
  icon: 'booking' | 'cancel' | 'noshow' | 'payment' | 'conduct' | 'prepare';
  rules: readonly string[];
};

/** Spec §9 policy text on the About page, in six groups. */
export const ruleGroups: readonly RuleGroup[] = [
  {
    title: 'Booking',
    icon: 'booking',
    rules: [
      'Book at least 48 hours in advance.',
      'Give three preferred time slots; your tutor confirms one of them.',
      'Say which concepts you need help with so the session can be prepared.',
    ],
  },
  {
    title: 'Cancellation and rescheduling',
    icon: 'cancel',
    rules: [
      'Cancel or reschedule up to 24 hours before the session.',
      'Late cancellation (less than 24 hours before) is billed at 50% of the fee.',
    ],
  },
  {
    title: 'No-shows',
    icon: 'noshow',
    rules: ['No-shows are billed in full.', 'If you are running late, let your tutor know as soon as possible.'],
  },
  {
    title: 'Payment',
    icon: 'payment',
    rules: [
      'Payment is due before the session unless agreed otherwise.',
      "Pay by EFT and use your booking's payment reference (TB-…, on your dashboard and in your e-mails) as the reference.",
    ],
  },
  {
    title: 'Conduct',
    icon: 'conduct',
    rules: ['Treat tutors and other students with respect.', 'Disrespect leads to a permanent ban.'],
  },
  {
    title: 'Session preparation and group sessions',
    icon: 'prepare',
    rules: [
      'Bring your notes, the questions you are stuck on and any past papers.',
      'Group sessions are arranged in advance; every member of the group follows these rules.',
    ],
  },
];
