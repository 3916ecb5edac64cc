import type { Compilable, CompiledQuery, DialectAdapter, QueryResult } from 'kysely';
import type { Db } from './create-db.ts';

const slotName = Symbol('prepared query argument');

interface Slot {
  readonly [slotName]: string;
}

const isSlot = (value: unknown): value is Slot => typeof value === 'object' && value !== null && slotName in value;

/** What `arg` hands the builder: a stand-in typed as the value, or undefined for an argument left out. */
type ArgOf<Args, K extends keyof Args> = undefined extends Args[K] ? Exclude<Args[K], undefined> | undefined : Args[K];

export type Arg<Args> = <K extends keyof Args & string>(name: K) => ArgOf<Args, K>;

/** A stand-in for each argument given: for a row inserted as it is. */
export type Slots<Args> = { [K in keyof Args]: ArgOf<Args, K> };

/**
 * A query built and compiled by Kysely once, then run with each call's values: Kysely builds its operation
 * tree and compiles it to SQL on every run, which on the hot paths cost more than SQLite took to answer
 * (a signed-in list, a booking's dozen statements: issue 22). `build` receives `arg(name)`, a stand-in for
 * each call's value, and must put every stand-in where Kysely binds a parameter (a compared value, an
 * inserted one, a limit), never inline it or branch on its value.
 *
 * It may branch on whether an argument is there: `arg(name)` is undefined for an argument left undefined
 * (null is a value, bound as any other), and each combination of the arguments given is compiled once (the
 * list's filters). `slots` holds a stand-in for each argument given, for a row inserted as it is. Compiled
 * per dialect, as an engine's SQL differs; a transaction shares its database's.
 */
export function preparedQuery<Args extends Record<string, unknown>, Row>(
  build: (db: Db, arg: Arg<Args>, slots: Slots<Args>) => Compilable<Row>,
): (db: Db, args: Args) => Promise<QueryResult<Row>> {
  const compiled = new WeakMap<DialectAdapter, Map<string, CompiledQuery<Row>>>();
  return async (db, args) => {
    const present = Object.keys(args).filter((name) => args[name] !== undefined);
    const shape = present.join();
    const adapter = db.getExecutor().adapter;
    let shapes = compiled.get(adapter);
    if (!shapes) compiled.set(adapter, (shapes = new Map()));
    let query = shapes.get(shape);
    if (!query) {
      const slot = (name: string): Slot | undefined => (args[name] === undefined ? undefined : { [slotName]: name });
      const slots = Object.fromEntries(present.map((name) => [name, slot(name)])) as Slots<Args>;
      query = build(db, slot as Arg<Args>, slots).compile();
      const bound = new Set(query.parameters.filter(isSlot).map((value) => value[slotName]));
      const unbound = present.filter((name) => !bound.has(name));
      if (unbound.length) throw new Error(`preparedQuery: ${unbound.join(', ')} not bound as parameters`);
      shapes.set(shape, query);
    }
    const parameters = query.parameters.map((value) => (isSlot(value) ? args[value[slotName]] : value));
    return db.executeQuery<Row>({ ...query, parameters });
  };
}
