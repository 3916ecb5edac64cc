/**
 * The twelve testimonials a new site starts with (spec §2 `/testimonials`: twelve quotes of name, course and
 * quote), in the order the page shows them. Without zod, so the public pages can carry it: it is the text the
 * testimonials and home pages are rendered with at build time (docs/decisions/0043) until the device holds the
 * admin's list. The server seeds a new Firestore database from it (storage/firestore/setup.ts); SQL databases get
 * migration 0015's frozen copy, which testimonials.test.ts holds to this one.
 */
export interface TestimonialText {
  name: string;
  course: string;
  quote: string;
}

export const testimonialSeed: readonly TestimonialText[] = [
  {
    name: 'Thandiwe Mokoena',
    course: 'COMP102',
    quote:
      'I was failing my Java practicals before I started sessions. Now I actually understand loops and arrays, and I passed my test with 74%.',
  },
  {
    name: 'Lerato Dlamini',
    course: 'MATHS130',
    quote:
      'Limits and derivatives finally make sense. The tutor explained everything step by step and never made me feel stupid for asking.',
  },
  {
    name: 'Pieter van der Merwe',
    course: 'STATS130',
    quote:
      'Hypothesis testing used to scare me. Two sessions before the exam and I knew exactly which test to use and why.',
  },
  {
    name: 'Aisha Patel',
    course: 'COMP107',
    quote: 'Booking was easy and the price is fair for a student budget. I now plan my study week around my sessions.',
  },
  {
    name: 'Sibusiso Khumalo',
    course: 'FET Mathematics',
    quote: 'My Grade 12 maths mark went from 52% to 71%. Trigonometry is no longer my worst section.',
  },
  {
    name: 'Naledi Mahlangu',
    course: 'MATHS140',
    quote:
      'The group session with friends from my class was great value, and we all worked through the past paper together.',
  },
  {
    name: 'Kagiso Molefe',
    course: 'COMP201',
    quote:
      'Linked lists and recursion clicked after one session. The tutor drew everything out and made me write the code myself.',
  },
  {
    name: 'Zanele Ngcobo',
    course: 'ISTN212',
    quote:
      'I needed help with SQL joins and normalisation for my project. Clear explanations and patient with my questions.',
  },
  {
    name: 'Ruan Botha',
    course: 'MATHS195',
    quote: 'I could reschedule when my test date moved, no stress. Friendly, reliable and on time every session.',
  },
  {
    name: 'Nomvula Zulu',
    course: 'FET Physical Science',
    quote: 'Newton\u2019s laws and momentum problems are so much easier now. I feel confident going into my finals.',
  },
  {
    name: 'Tshepo Sithole',
    course: 'MATHS246',
    quote: 'Linear algebra proofs felt impossible. Working through examples together showed me how to start each one.',
  },
  {
    name: 'Ayanda Mthembu',
    course: 'STATS130',
    quote: 'Paying by EFT only when I book suits me. The monthly option saved me money during exam season.',
  },
];
