import type { Category } from '../../../common/roles.ts';

/**
 * The spec's ten modules (§2), which a new catalogue starts with. SQL databases get them from migration 0002,
 * which keeps its own frozen copy; a new Firestore project from `seedCatalogue` (storage/firestore/setup.ts).
 */
export interface SeedModule {
  slug: string;
  name: string;
  category: Category;
  priceCents: number;
  description: string;
  topics: string[];
}

export const catalogueSeed: readonly SeedModule[] = [
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
