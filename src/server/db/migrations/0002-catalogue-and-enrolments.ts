import { sql, type Kysely } from 'kysely';

/**
 * The module catalogue (one table the admin edits, DESIGN "Product decisions") seeded with the spec's
 * modules (§3 slugs, §9 prices), and enrolments (one row per user and module). Frozen once landed.
 *
 * The seed is literal data, not imported from src/common: a migration must give the same result however
 * the app's code changes later (CONVENTIONS §6). Slugs equal `slugify(name)` (checked by catalogue.test.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('modules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) =>
      c.notNull().check(sql`category in ('Computer Science', 'Mathematics', 'Statistics')`),
    )
    // Integer cents; at most R100,000 an hour (priceLimits in src/common/catalogue.ts).
    .addColumn('price_cents', 'integer', (c) => c.notNull().check(sql`price_cents > 0 and price_cents <= 10000000`))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // A JSON array of strings.
    .addColumn('topics', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // "Java OOP and GUI" and "java oop and gui" are the same module to a student.
  await db.schema
    .createIndex('modules_name_lower_key')
    .on('modules')
    .unique()
    .expression(sql`lower(name)`)
    .execute();

  await db.schema
    .createTable('enrolments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Null once the module is deleted; the name below keeps the enrolment readable.
    .addColumn('module_id', 'text', (c) => c.references('modules.id').onDelete('set null'))
    .addColumn('module_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('enrolments_user_module_key', ['user_id', 'module_id'])
    .execute();
  // Deleting a module sets its enrolments' module_id to null: that looks them up by module.
  await db.schema.createIndex('enrolments_module_id_idx').on('enrolments').column('module_id').execute();

  const now = new Date().toISOString();
  await db
    .insertInto('modules')
    .values(
      seed.map((m) => ({
        id: crypto.randomUUID(),
        slug: m.slug,
        name: m.name,
        category: m.category,
        price_cents: m.priceCents,
        description: m.description,
        topics: JSON.stringify(m.topics),
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

const seed = [
  {
    slug: 'introduction-to-calculus',
    name: 'Introduction To Calculus',
    category: 'Mathematics',
    priceCents: 9000,
    description:
      'Limits, derivatives and integrals from first principles, for first-year university students meeting calculus for the first time. We work through test and exam questions step by step until the methods feel routine.',
    topics: ['Limits and continuity', 'Rules of differentiation', 'Integration and the area under a curve'],
  },
  {
    slug: 'calculus-and-linear-algebra',
    name: 'Calculus and Linear Algebra',
    category: 'Mathematics',
    priceCents: 9000,
    description:
      'Further calculus alongside matrices, vectors and systems of equations, as taught in first- and second-year university mathematics. For students who need both the techniques and the reasoning behind them.',
    topics: ['Techniques of integration', 'Matrices and determinants', 'Vectors and systems of linear equations'],
  },
  {
    slug: 'introduction-to-programming-with-python',
    name: 'Introduction to Programming with Python',
    category: 'Computer Science',
    priceCents: 8000,
    description:
      'Your first steps in programming: variables, decisions, loops and functions in Python, with plenty of practice writing and debugging small programs. No experience needed.',
    topics: ['Variables, types and input/output', 'Conditionals and loops', 'Functions and lists'],
  },
  {
    slug: 'introduction-to-oop-with-java',
    name: 'Introduction to OOP With Java',
    category: 'Computer Science',
    priceCents: 9000,
    description:
      'Object-oriented programming in Java for students moving on from a first programming course. Classes, objects and arrays, and the habits that make code easy to read and test.',
    topics: ['Classes and objects', 'Arrays and 2D arrays', 'Inheritance and polymorphism'],
  },
  {
    slug: 'java-oop-and-gui',
    name: 'Java OOP and GUI',
    category: 'Computer Science',
    priceCents: 9000,
    description:
      'Build on your Java foundations with interfaces, abstract classes and exceptions, then bring it together in graphical user interfaces that respond to the user.',
    topics: ['Interfaces and abstract classes', 'Exception handling', 'GUI components and event handling'],
  },
  {
    slug: 'databases-and-programming',
    name: 'Databases and Programming',
    category: 'Computer Science',
    priceCents: 8000,
    description:
      'Design relational databases, write SQL queries and connect a database to your programs, as in second-year information systems and technology courses.',
    topics: ['Entity-relationship modelling', 'SQL queries and joins', 'Normalisation'],
  },
  {
    slug: 'introduction-to-statistics',
    name: 'Introduction to Statistics',
    category: 'Statistics',
    priceCents: 8000,
    description:
      'Describe data, work with probability and draw conclusions from samples, for first-year statistics in any faculty. We focus on choosing the right method and explaining the result in words.',
    topics: ['Descriptive statistics', 'Probability and distributions', 'Confidence intervals and hypothesis tests'],
  },
  {
    slug: 'fet-mathematics',
    name: 'FET Mathematics',
    category: 'Mathematics',
    priceCents: 10000,
    description:
      'Grade 10 to 12 Mathematics (CAPS) for learners preparing for tests and the NSC final exams, from algebra and functions to calculus and Euclidean geometry.',
    topics: ['Algebra, equations and inequalities', 'Functions and graphs', 'Differential calculus'],
  },
  {
    slug: 'fet-physical-science',
    name: 'FET Physical Science',
    category: 'Mathematics',
    priceCents: 10000,
    description:
      'Grade 10 to 12 Physical Sciences (CAPS): the physics and chemistry of the NSC exams, with a focus on calculations, units and exam technique.',
    topics: ["Newton's laws and momentum", 'Electricity and magnetism', 'Stoichiometry and chemical change'],
  },
  {
    slug: 'data-structures-and-algorithms',
    name: 'Data Structures and Algorithms',
    category: 'Computer Science',
    priceCents: 9000,
    description:
      'Lists, stacks, queues, trees and graphs, and how to choose and analyse the right algorithm for a problem. For second-year computer science students and anyone preparing for technical interviews.',
    topics: ['Linked lists, stacks and queues', 'Trees and graphs', 'Sorting, searching and Big-O analysis'],
  },
];
