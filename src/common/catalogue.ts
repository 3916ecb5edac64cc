import { categories } from './roles.ts';
import { z } from './zod.ts';

/** Spec §8 Admin and the module pages, word for word where the spec gives them. */
export const catalogueMessages = {
  fillAllFields: 'Please fill in all module fields.',
  fetchFailed: 'Failed to fetch modules.',
  added: 'Module added successfully!',
  addFailed: 'Failed to add module.',
  updated: 'Module updated successfully!',
  updateFailed: 'Failed to update module.',
  deleted: 'Module deleted successfully!',
  deleteFailed: 'Failed to delete module.',
  notFound: 'Module Not Found',
  deleteConfirm: (name: string) =>
    `Delete "${name}"? It disappears from the catalogue; students who enrolled or booked keep its name on their records.`,
  duplicateName: 'A module with this name already exists.',
  offline: 'You are offline. Connect to the internet to change the catalogue.',
} as const;

export const priceLimits = {
  /** R100,000 an hour: anything above is a typing mistake. */
  maxCents: 100_000_00,
  /** The admin's "+R10" button (spec §9). */
  stepCents: 10_00,
} as const;

export const moduleLimits = { nameMax: 200, descriptionMax: 2000, topicMax: 100, topicsMax: 10 } as const;

/** A module as the API returns it. Money is integer cents; the page shows rand. */
export const moduleSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  category: z.enum(categories),
  priceCents: z.number().int(),
  description: z.string(),
  topics: z.array(z.string()),
  updatedAt: z.string(),
});
export type Module = z.infer<typeof moduleSchema>;

const description = z.string().trim().max(moduleLimits.descriptionMax, `Description must be at most ${moduleLimits.descriptionMax} characters.`);
const topics = z
  .array(z.string().trim().min(1, 'A topic cannot be empty.').max(moduleLimits.topicMax, `A topic must be at most ${moduleLimits.topicMax} characters.`))
  .max(moduleLimits.topicsMax, `At most ${moduleLimits.topicsMax} topics.`);

/** `POST /api/modules` (admin). Name, price and category are the spec's required fields. */
export const createModuleInputSchema = z.strictObject({
  name: z
    .string(catalogueMessages.fillAllFields)
    .trim()
    .min(1, catalogueMessages.fillAllFields)
    .max(moduleLimits.nameMax, `Name must be at most ${moduleLimits.nameMax} characters.`),
  category: z.enum(categories, catalogueMessages.fillAllFields),
  priceCents: z
    .number(catalogueMessages.fillAllFields)
    .int('The price can have at most two decimals (whole cents).')
    .positive('The price must be more than R0.')
    .max(priceLimits.maxCents, 'The price can be at most R100,000 per hour.'),
  description: description.default(''),
  topics: topics.default([]),
});
export type CreateModuleInput = z.input<typeof createModuleInputSchema>;

/** `PATCH /api/modules/:id` (admin): the texts only; the price moves with "+R10". */
export const updateModuleInputSchema = z
  .strictObject({ description: description.optional(), topics: topics.optional() })
  .refine((v) => v.description !== undefined || v.topics !== undefined, { message: 'Nothing to change.' });
export type UpdateModuleInput = z.input<typeof updateModuleInputSchema>;

/** Turns what the admin typed ("90", "R 90.50") into cents; `undefined` when it is not a price. */
export function randToCents(text: string): number | undefined {
  const match = /^\s*R?\s*(\d{1,9})(?:[.,](\d{1,2}))?\s*$/i.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** "R90" or "R90.50": how prices read on every page. */
export function formatRand(cents: number): string {
  const rand = cents / 100;
  return `R${Number.isInteger(rand) ? rand.toString() : rand.toFixed(2)}`;
}

/** The slug of a module name: "Java OOP and GUI" → "java-oop-and-gui". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
