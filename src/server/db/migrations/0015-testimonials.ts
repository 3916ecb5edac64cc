import { sql, type Kysely } from 'kysely';

/**
 * The testimonials (issue 34): a table the admin curates, seeded with the twelve quotes the site showed, in their
 * order. Frozen once landed.
 *
 * The seed is literal data, not imported from src/common: a migration must give the same result however the app's
 * code changes later (CONVENTIONS §6). testimonials.test.ts checks that it equals `testimonialSeed` as landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('testimonials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('course', 'text', (c) => c.notNull())
    .addColumn('quote', 'text', (c) => c.notNull())
    // An integer on both engines: 1 keeps it off the public pages.
    .addColumn('hidden', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`hidden in (0, 1)`),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  const now = new Date().toISOString();
  await db
    .insertInto('testimonials')
    .values(
      seed.map(([name, course, quote], position) => ({
        id: crypto.randomUUID(),
        name,
        course,
        quote,
        hidden: 0,
        position,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

const seed: [name: string, course: string, quote: string][] = [
  [
    'Thandiwe Mokoena',
    'COMP102',
    'I was failing my Java practicals before I started sessions. Now I actually understand loops and arrays, and I passed my test with 74%.',
  ],
  [
    'Lerato Dlamini',
    'MATHS130',
    'Limits and derivatives finally make sense. The tutor explained everything step by step and never made me feel stupid for asking.',
  ],
  [
    'Pieter van der Merwe',
    'STATS130',
    'Hypothesis testing used to scare me. Two sessions before the exam and I knew exactly which test to use and why.',
  ],
  [
    'Aisha Patel',
    'COMP107',
    'Booking was easy and the price is fair for a student budget. I now plan my study week around my sessions.',
  ],
  [
    'Sibusiso Khumalo',
    'FET Mathematics',
    'My Grade 12 maths mark went from 52% to 71%. Trigonometry is no longer my worst section.',
  ],
  [
    'Naledi Mahlangu',
    'MATHS140',
    'The group session with friends from my class was great value, and we all worked through the past paper together.',
  ],
  [
    'Kagiso Molefe',
    'COMP201',
    'Linked lists and recursion clicked after one session. The tutor drew everything out and made me write the code myself.',
  ],
  [
    'Zanele Ngcobo',
    'ISTN212',
    'I needed help with SQL joins and normalisation for my project. Clear explanations and patient with my questions.',
  ],
  [
    'Ruan Botha',
    'MATHS195',
    'I could reschedule when my test date moved, no stress. Friendly, reliable and on time every session.',
  ],
  [
    'Nomvula Zulu',
    'FET Physical Science',
    'Newton\u2019s laws and momentum problems are so much easier now. I feel confident going into my finals.',
  ],
  [
    'Tshepo Sithole',
    'MATHS246',
    'Linear algebra proofs felt impossible. Working through examples together showed me how to start each one.',
  ],
  [
    'Ayanda Mthembu',
    'STATS130',
    'Paying by EFT only when I book suits me. The monthly option saved me money during exam season.',
  ],
];
