import type { Generated } from 'kysely';
import type { Category } from '../../../common/roles.ts';

export interface ModulesTable {
  id: string;
  slug: string;
  name: string;
  category: Category;
  price_cents: number;
  description: Generated<string>;
  /** A JSON array of strings. */
  topics: Generated<string>;
  created_at: string;
  updated_at: string;
}
