import { catalogueMessages } from './catalogue.messages.ts';
import { categories } from './roles.ts';
import { asLineFeeds, isMultiLine, isOneLine, textMessages } from './validation.ts';
import { z } from './zod.ts';

// The texts and the price helpers live in zod-free modules so read-only pages can use them without zod.
export { catalogueMessages };
export { formatRand, randToCents } from './money.ts';

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

const name = z
  .string(catalogueMessages.fillAllFields)
  .trim()
  .min(1, catalogueMessages.fillAllFields)
  .max(moduleLimits.nameMax, `Name must be at most ${moduleLimits.nameMax} characters.`)
  // A module's name is in the subject of every booking e-mail about it.
  .refine(isOneLine, textMessages.oneLine);
const category = z.enum(categories, catalogueMessages.fillAllFields);
const priceCents = z
  .number(catalogueMessages.fillAllFields)
  .int('The price can have at most two decimals (whole cents).')
  .positive('The price must be more than R0.')
  .max(priceLimits.maxCents, 'The price can be at most R100,000 per hour.');
const description = z
  .string()
  .overwrite(asLineFeeds)
  .trim()
  .max(moduleLimits.descriptionMax, `Description must be at most ${moduleLimits.descriptionMax} characters.`)
  .refine(isMultiLine, textMessages.multiLine);
const topics = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'A topic cannot be empty.')
      .max(moduleLimits.topicMax, `A topic must be at most ${moduleLimits.topicMax} characters.`)
      .refine(isOneLine, textMessages.oneLine),
  )
  .max(moduleLimits.topicsMax, `At most ${moduleLimits.topicsMax} topics.`);

/** `POST /api/modules` (admin). Name, price and category are the spec's required fields. */
export const createModuleInputSchema = z.strictObject({
  name,
  category,
  priceCents,
  description: description.default(''),
  topics: topics.default([]),
});
export type CreateModuleInput = z.input<typeof createModuleInputSchema>;

/**
 * `PATCH /api/modules/:id` (admin): any of the fields, with the same rules as adding; those left out stay.
 * `null` is not "leave it" but a wrong value (400), so a form that loses a field cannot blank it by accident.
 */
export const updateModuleInputSchema = z
  .strictObject({
    name: name.optional(),
    category: category.optional(),
    priceCents: priceCents.optional(),
    description: description.optional(),
    topics: topics.optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: 'Nothing to change.' });
export type UpdateModuleInput = z.input<typeof updateModuleInputSchema>;

/** The slug of a module name: "Java OOP and GUI" → "java-oop-and-gui". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
