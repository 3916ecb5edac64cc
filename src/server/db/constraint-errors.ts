/**
 * Recognises constraint violations on both databases, so a usecase can turn a race it lost (two admins
 * adding the same module, a double-clicked Enroll) into the same answer as the check it did first.
 * node:sqlite: `errcode` is SQLite's extended result code (https://sqlite.org/rescode.html);
 * pg: `code` is the SQLSTATE (https://www.postgresql.org/docs/current/errcodes-appendix.html).
 */
const sqlite = { unique: [2067, 1555], foreignKey: [787] };
const postgres = { unique: ['23505'], foreignKey: ['23503'] };

function matches(error: unknown, kind: 'unique' | 'foreignKey'): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return sqlite[kind].includes(errcode);
  return typeof code === 'string' && postgres[kind].includes(code);
}

export const isUniqueViolation = (error: unknown) => matches(error, 'unique');
export const isForeignKeyViolation = (error: unknown) => matches(error, 'foreignKey');
