import type { Services } from '../server.ts';

/**
 * Everything stored in a table (SQL) or the collection of the same name (Firestore), as the engine holds it, in
 * a stable order: what a test compares before and after a refused request ("nothing changed"), whichever
 * engine the test server runs on.
 */
export async function storedRows(services: Services, name: 'modules' | 'enrolments'): Promise<unknown[]> {
  if (services.firestore) {
    const docs = (await services.firestore.collection(name).get()).docs;
    return docs.map((d) => ({ id: d.id, ...d.data() })).sort((a, b) => a.id.localeCompare(b.id));
  }
  return services.db.selectFrom(name).selectAll().orderBy('id').execute();
}
