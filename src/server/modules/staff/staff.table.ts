import type { Category } from '../../../common/roles.ts';

export interface TutorCategoriesTable {
  user_id: string;
  category: Category;
}
