import { createHash } from 'node:crypto';
import { createAdapterFactory, type CleanedWhere, type DBAdapterInstance } from 'better-auth/adapters';
import {
  FieldPath,
  Timestamp,
  type DocumentReference,
  type DocumentSnapshot,
  type Firestore,
  type Query,
} from 'firebase-admin/firestore';
import { isIndexable } from '../storage/firestore/document-ids.ts';
import { isRecordId } from '../storage/record-ids.ts';

/**
 * better-auth on Firestore (issue 21; docs/firestore-layout.md). Each model is a top-level collection named as
 * the model is named in the options (`users`, `sessions`, `accounts`, `verifications`, `rate_limits`), each
 * record a document whose id is the record's id, its fields named as better-auth's field names say (our
 * snake_case column names), dates stored as Firestore timestamps.
 *
 * Queries: Firestore is asked only for what it answers exactly from its automatic single-field indexes (the
 * equality clauses, or one `in`, or one range when there is nothing else), and every clause is then checked
 * again here, with the SQL engines' meaning (the AND clauses all hold, and one of the OR clauses when there are
 * any), so no composite index is needed and no query can match more or less than on SQL. Sorting, offset and
 * limit run in Firestore only when it did all the filtering and needs no composite index for the order;
 * otherwise here, on the few records the equalities leave (a user's sessions, an identifier's verifications).
 *
 * Every write that depends on a read (update, delete, consume, increment) is a compare-and-set on the
 * documents read (compareAndSet); a create with a unique field looks after writing and withdraws if another
 * record was first (create). No Firestore transaction is used. better-auth's multi-step `transaction()` is
 * not offered: Firestore requires every read of a transaction before its first write, and better-auth's
 * callbacks read after writing (consume a token, then look for the others). See docs/firestore-layout.md.
 */
export function firestoreAdapter(db: Firestore): DBAdapterInstance {
  return createAdapterFactory({
    config: {
      adapterId: 'firestore',
      adapterName: 'Firestore',
      // Ids are document ids: strings (better-auth's, or ours: crypto.randomUUID()).
      supportsNumericIds: false,
      supportsDates: true,
      supportsBooleans: true,
      supportsJSON: false,
      supportsArrays: false,
      transaction: false,
    },
    adapter: ({ schema, getDefaultFieldName }) => {
      const collection = (model: string) => db.collection(model);

      /** The fields a model's schema marks unique (users.email, sessions.token, rate_limits.key), by stored name. */
      const uniqueFields = (modelKey: string) =>
        Object.entries(schema[modelKey]?.fields ?? {})
          .filter(([, attributes]) => attributes.unique)
          .map(([key, attributes]) => attributes.fieldName ?? key);

      /**
       * Every field of the model, `null` when not given, as a SQL row has every column: Firestore's `orderBy`
       * leaves out documents that lack the field, and its `== null` does not match a missing one.
       */
      const withEveryField = (modelKey: string, fields: Rec): Rec => {
        const all: Rec = {};
        for (const [key, attributes] of Object.entries(schema[modelKey]?.fields ?? {}))
          if (key !== 'id') all[attributes.fieldName ?? key] = null;
        return { ...all, ...toStored(fields) };
      };

      const deleteMatching = (model: string, where: CleanedWhere[]) =>
        compareAndSet(db, model, where, undefined, (hits, write) => {
          for (const hit of hits) write(hit, null);
          return hits.length;
        });

      const selectFields = (modelKey: string, record: Rec, select: string[] | undefined): Rec => {
        if (!select?.length) return record;
        return Object.fromEntries(
          Object.entries(record).filter(([key]) =>
            select.includes(getDefaultFieldName({ model: modelKey, field: key })),
          ),
        );
      };

      return {
        async create({ model, modelKey = model, data }) {
          const { id, ...fields } = data as Rec;
          const col = collection(model);
          const stored = withEveryField(modelKey, fields);
          const keyField = modelKey === 'rateLimit' ? uniqueFields(modelKey)[0] : undefined;
          if (keyField && typeof stored[keyField] === 'string') {
            // A rate-limit record is named by its key: of a burst of first requests, one creates it and the others
            // fail as on a unique index (better-auth then reads it and counts), with no transaction to contend on.
            const ref = col.doc(keyedId(stored[keyField]));
            await ref.create(stored);
            return { ...stored, id: ref.id } as unknown as typeof data;
          }
          const ref = typeof id === 'string' && id !== '' ? col.doc(id) : col.doc();
          // `create` fails when the id is taken, as an INSERT does on a primary key.
          await ref.create(stored);
          for (const field of uniqueFields(modelKey)) {
            if (stored[field] === null) continue;
            // Firestore has no unique index, and checking first in a transaction made concurrent logins time out
            // on the emulator (its query locks). So: write, then look. Of the records holding the value, the
            // first written keeps it and any other removes itself: a reader that ran before a rival's commit
            // also ran before its commit time, so every writer agrees who was first.
            const holders = (await col.where(field, '==', stored[field]).get()).docs;
            const first = holders.reduce((a, b) => (writtenBefore(b, a) ? b : a));
            if (first.id !== ref.id) {
              await ref.delete();
              throw new Error(`${model}.${field} must be unique: "${String(stored[field])}" is taken`);
            }
          }
          return { ...stored, id: ref.id } as unknown as typeof data;
        },

        async findOne<T>({ model, modelKey = model, where, select }: Find) {
          const [record] = await find(db, model, where, { limit: 1 });
          return (record ? selectFields(modelKey, record, select) : null) as T | null;
        },

        async findMany<T>({ model, modelKey = model, where, limit, sortBy, offset, select }: FindMany) {
          const records = await find(db, model, where ?? [], { limit, offset, sortBy });
          return records.map((record) => selectFields(modelKey, record, select)) as T[];
        },

        async count({ model, where }) {
          const plan = planQuery(collection(model), where ?? []);
          if (plan.none) return 0;
          if (plan.exact && !plan.byId) return (await plan.query.count().get()).data().count;
          return (await find(db, model, where ?? [], {})).length;
        },

        async update<T>({ model, where, update }: { model: string; where: CleanedWhere[]; update: T }) {
          if (where.length === 0) return null;
          const changes = toStored(update as Rec);
          return compareAndSet(db, model, where, 1, ([hit], write) => {
            if (!hit) return null;
            if (Object.keys(changes).length > 0) write(hit, changes);
            return { ...hit.record, ...fromStored(changes) } as T;
          });
        },

        async updateMany({ model, where, update }) {
          const changes = toStored(update);
          return compareAndSet(db, model, where, undefined, (hits, write) => {
            if (Object.keys(changes).length > 0) for (const hit of hits) write(hit, changes);
            return hits.length;
          });
        },

        async delete({ model, where }) {
          if (where.length === 0) return;
          await deleteMatching(model, where);
        },

        deleteMany: ({ model, where }) => deleteMatching(model, where),

        async consumeOne<T>({ model, where }: { model: string; where: CleanedWhere[] }) {
          // Of two requests consuming one token, the second's delete finds it changed: it looks again, and
          // finds none.
          return compareAndSet(db, model, where, 1, ([hit], write) => {
            if (!hit) return null;
            write(hit, null);
            return hit.record as T;
          });
        },

        async incrementOne<T>({ model, where, increment, set }: Increment) {
          // The where clause is the guard (the rate limiter's window and budget), checked on what was read.
          return compareAndSet(db, model, where, 1, ([hit], write) => {
            if (!hit) return null;
            const changes: Rec = { ...toStored(set ?? {}) };
            for (const [field, delta] of Object.entries(increment))
              changes[field] = (typeof hit.record[field] === 'number' ? hit.record[field] : 0) + delta;
            if (Object.keys(changes).length > 0) write(hit, changes);
            return { ...hit.record, ...fromStored(changes) } as T;
          });
        },
      };
    },
  });
}

type Rec = Record<string, unknown>;

/** gRPC's codes, as firebase-admin reports a write whose precondition failed or whose document is gone. */
const failedPrecondition = 9;
const notFound = 5;
/** Enough for a burst: each round one writer wins, and once the budget is spent the guard stops the rest. */
const casAttempts = 20;
/** Firestore's most writes in one batch. */
const batchLimit = 500;

/** Whether `a` was written before `b` (commit times, then ids for a tie). */
function writtenBefore(a: DocumentSnapshot, b: DocumentSnapshot): boolean {
  const x = a.createTime!;
  const y = b.createTime!;
  if (x.seconds !== y.seconds) return x.seconds < y.seconds;
  if (x.nanoseconds !== y.nanoseconds) return x.nanoseconds < y.nanoseconds;
  return a.id < b.id;
}

/** A document id from a value of any length or characters (a rate-limit key holds `/`). */
const keyedId = (value: string) => createHash('sha256').update(value).digest('hex');

type SortBy = { field: string; direction: 'asc' | 'desc' };
interface Find {
  model: string;
  modelKey?: string;
  where: CleanedWhere[];
  select?: string[] | undefined;
}
interface FindMany extends Omit<Find, 'where'> {
  where?: CleanedWhere[] | undefined;
  limit: number;
  sortBy?: SortBy | undefined;
  offset?: number | undefined;
}
interface Increment {
  model: string;
  where: CleanedWhere[];
  increment: Record<string, number>;
  set?: Record<string, unknown> | undefined;
}

/** Firestore refuses `undefined` (better-auth leaves optional fields so): such a field is simply not written. */
function toStored(data: Rec): Rec {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined));
}

function fromStored(data: Rec): Rec {
  return Object.fromEntries(
    Object.entries(data).map(([key, value]) => [key, value instanceof Timestamp ? value.toDate() : value]),
  );
}

// The id is the document's: a field of that name, if one were stored, cannot override it.
const toRecord = (snapshot: DocumentSnapshot): Rec => ({ ...fromStored(snapshot.data() ?? {}), id: snapshot.id });

/** Firestore's `in` takes at most 30 values. */
const inLimit = 30;

const isScalar = (value: unknown): value is string | number | boolean | Date =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date;

/** A clause Firestore answers with exactly the meaning it has here (case-sensitive, on a stored value). */
const exactInFirestore = (clause: CleanedWhere) => clause.mode !== 'insensitive' && clause.connector !== 'OR';

interface Plan {
  query: Query;
  /** Firestore applies every clause itself: its answer needs no second look. */
  exact: boolean;
  /** The one document an `id = …` clause names: read directly, no query. */
  byId?: string;
  /** Whether Firestore is asked to filter at all. */
  filtered: boolean;
  /** The field of the one range filter Firestore applies, if any (it can then order by that field alone). */
  rangeField?: string;
  /** No document can match: no need to ask. */
  none?: boolean;
}

/**
 * A clause no stored record meets, which Firestore would refuse to look for (an error, a 500): an id no
 * document can have, or a value longer than Firestore indexes (1,500 bytes). Both come from outside (a reset
 * link's token is in its URL); the records' ids, tokens and addresses are all far shorter.
 */
const unmatchable = (clause: CleanedWhere) =>
  clause.operator === 'eq' &&
  exactInFirestore(clause) &&
  typeof clause.value === 'string' &&
  (clause.field === 'id' ? !isRecordId(clause.value) : !isIndexable(clause.value));

/**
 * What to ask Firestore for: a superset of the matching documents, from single-field indexes only. Firestore
 * merges equality filters on several fields without a composite index; `in` counts as equalities; a range
 * filter is used only alone, since a range beside an equality needs a composite index.
 */
function planQuery(col: Query, where: CleanedWhere[]): Plan {
  const hasOr = where.some((clause) => clause.connector === 'OR');
  if (hasOr) return { query: col, exact: false, filtered: false };
  if (where.some(unmatchable)) return { query: col, exact: true, filtered: true, none: true };
  const byId = where.find((c) => c.field === 'id' && c.operator === 'eq' && typeof c.value === 'string');
  if (byId && exactInFirestore(byId))
    return { query: col, exact: where.length === 1, filtered: true, byId: byId.value as string };

  const path = (field: string) => (field === 'id' ? FieldPath.documentId() : field);
  const pushed = new Set<CleanedWhere>();
  let query = col;
  for (const clause of where) {
    if (clause.operator === 'eq' && exactInFirestore(clause) && isScalar(clause.value)) {
      query = query.where(path(clause.field), '==', clause.value);
      pushed.add(clause);
    }
  }
  const oneIn = where.find(
    (c) =>
      c.operator === 'in' &&
      exactInFirestore(c) &&
      Array.isArray(c.value) &&
      c.value.length > 0 &&
      c.value.length <= inLimit &&
      (c.value as unknown[]).every(isScalar),
  );
  if (oneIn) {
    query = query.where(path(oneIn.field), 'in', oneIn.value);
    pushed.add(oneIn);
  }
  let rangeField: string | undefined;
  if (pushed.size === 0) {
    const range = where.find(
      (c) => ['lt', 'lte', 'gt', 'gte'].includes(c.operator) && exactInFirestore(c) && isScalar(c.value),
    );
    if (range && range.field !== 'id') {
      const op = ({ lt: '<', lte: '<=', gt: '>', gte: '>=' } as const)[range.operator as 'lt' | 'lte' | 'gt' | 'gte'];
      query = query.where(range.field, op, range.value);
      pushed.add(range);
      rangeField = range.field;
    }
  }
  return { query, exact: pushed.size === where.length, filtered: pushed.size > 0, rangeField };
}

/** A matching document: its record, and the update time a compare-and-set write checks. */
interface Hit {
  record: Rec;
  ref: DocumentReference;
  updateTime: Timestamp;
}

/**
 * The matching documents, in order: Firestore narrows (planQuery), every clause is checked here, then sorted and
 * sliced.
 */
async function findHits(
  db: Firestore,
  model: string,
  where: CleanedWhere[],
  page: { limit?: number | undefined; offset?: number | undefined; sortBy?: SortBy | undefined },
): Promise<Hit[]> {
  const plan = planQuery(db.collection(model), where);
  if (plan.none) return [];
  const hit = (snapshot: DocumentSnapshot): Hit => ({
    record: toRecord(snapshot),
    ref: snapshot.ref,
    updateTime: snapshot.updateTime!,
  });

  if (plan.byId !== undefined) {
    const snapshot = await db.collection(model).doc(plan.byId).get();
    const found = snapshot.exists ? hit(snapshot) : undefined;
    return found && matches(found.record, where) && !(page.offset ?? 0) ? [found] : [];
  }

  const { sortBy, offset = 0, limit } = page;
  // Firestore orders and pages by itself only what it filtered completely, and only orders needing no
  // composite index: with no filter, or a range on the sort field itself.
  const nativePage =
    plan.exact && (!sortBy || !plan.filtered || plan.rangeField === sortBy.field) && (sortBy?.field ?? '') !== 'id';
  if (nativePage) {
    let query = plan.query;
    if (sortBy) query = query.orderBy(sortBy.field, sortBy.direction);
    if (offset) query = query.offset(offset);
    if (limit !== undefined) query = query.limit(limit);
    return (await query.get()).docs.map(hit);
  }

  let hits = (await plan.query.get()).docs.map(hit).filter((h) => matches(h.record, where));
  if (sortBy) hits = hits.sort((a, b) => compare(a.record[sortBy.field], b.record[sortBy.field], sortBy.direction));
  return hits.slice(offset, limit === undefined ? undefined : offset + limit);
}

const find = async (...args: Parameters<typeof findHits>) => (await findHits(...args)).map((h) => h.record);

/**
 * Writes that depend on what was read, as compare-and-set: `stage` adds writes on the documents found, each
 * with that document's update time as precondition, in one batch (atomic: all or none). When another writer
 * changed or deleted one of them in between, the batch fails and all is read and decided again. No lock is
 * held: a record written over and over by many at once (the rate limiter's count for a client hammering one
 * path) costs retries, where Firestore transactions on one document abort (FIREBASE.md: at 20 steady workers,
 * 89 % failed after the SDK's retries).
 */
async function compareAndSet<T>(
  db: Firestore,
  model: string,
  where: CleanedWhere[],
  limit: number | undefined,
  stage: (hits: Hit[], write: (hit: Hit, changes: Rec | null) => void) => T,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const hits = await findHits(db, model, where, { limit });
    const writes: [Hit, Rec | null][] = [];
    const result = stage(hits, (hit, changes) => writes.push([hit, changes]));
    try {
      for (let i = 0; i < writes.length; i += batchLimit) {
        const batch = db.batch();
        for (const [hit, changes] of writes.slice(i, i + batchLimit)) {
          const precondition = { lastUpdateTime: hit.updateTime };
          if (changes === null) batch.delete(hit.ref, precondition);
          else batch.update(hit.ref, changes, precondition);
        }
        await batch.commit();
      }
      return result;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if ((code !== failedPrecondition && code !== notFound) || attempt >= casAttempts) throw error;
      // Someone else wrote first: wait a little, at random, and decide again on what is there now.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** The SQL engines' meaning: every AND clause holds, and at least one OR clause when there are any. */
function matches(record: Rec, where: CleanedWhere[]): boolean {
  const ands = where.filter((clause) => clause.connector !== 'OR');
  const ors = where.filter((clause) => clause.connector === 'OR');
  return ands.every((clause) => holds(record, clause)) && (ors.length === 0 || ors.some((c) => holds(record, c)));
}

function holds(record: Rec, clause: CleanedWhere): boolean {
  const insensitive = clause.mode === 'insensitive';
  const norm = (value: unknown) =>
    value instanceof Date ? value.getTime() : insensitive && typeof value === 'string' ? value.toLowerCase() : value;
  const stored = norm(record[clause.field] ?? null);
  const wanted = Array.isArray(clause.value) ? clause.value.map(norm) : norm(clause.value);
  const text = typeof stored === 'string' && typeof wanted === 'string';
  switch (clause.operator) {
    case 'eq':
      return stored === wanted;
    case 'ne':
      return stored !== wanted;
    case 'in':
      return Array.isArray(wanted) && wanted.includes(stored);
    case 'not_in':
      return Array.isArray(wanted) && !wanted.includes(stored);
    case 'contains':
      return text && stored.includes(wanted);
    case 'starts_with':
      return text && stored.startsWith(wanted);
    case 'ends_with':
      return text && stored.endsWith(wanted);
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return stored !== null && wanted !== null && ordered(stored, wanted, clause.operator);
  }
}

function ordered(a: unknown, b: unknown, operator: 'lt' | 'lte' | 'gt' | 'gte'): boolean {
  const order = compare(a, b, 'asc');
  return { lt: order < 0, lte: order <= 0, gt: order > 0, gte: order >= 0 }[operator];
}

/** Nulls first, as SQLite and the memory adapter sort ascending. */
function compare(a: unknown, b: unknown, direction: 'asc' | 'desc'): number {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  let order: number;
  if (x === y || (x == null && y == null)) order = 0;
  else if (x == null) order = -1;
  else if (y == null) order = 1;
  else order = (x as number | string) < (y as number | string) ? -1 : 1;
  return direction === 'asc' ? order : -order;
}
