import type { Env, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { photoLimits } from '../../../common/qa.ts';
import { fieldErrors } from '../../../common/validation.ts';
import { z as zod } from '../../../common/zod.ts';
import { createError, createValidationError } from '../../http/errors.ts';
import { jsonBody } from '../../http/json-body.ts';
import type { PhotoUpload } from './qa.photos.ts';

/** The photos each request brought (`photosOf`), beside its validated post. */
const sent = new WeakMap<Request, PhotoUpload[]>();

/** The photos the post's request carried; none for a JSON post. */
export const photosOf = (c: { req: { raw: Request } }): PhotoUpload[] => sent.get(c.req.raw) ?? [];

const malformed = (message: string) => createError({ code: 'request.invalid', message, status: 400 });

// More than a post may carry is refused by the usecase, with its own message; far more is not read at all.
const photoIdsSchema = zod.array(zod.uuid()).max(photoLimits.perPost * 3);

/**
 * A post's body: JSON (`jsonBody`), or multipart/form-data when it carries photos: `post` (the same JSON),
 * `photoIds` (their ids as a JSON list, in order), then one `photo` and one `thumb` file per id, in the same
 * order. Multipart costs the photos' bytes once; JSON would need base64, a third more on a student's data.
 */
export function postBody<S extends z.ZodType>(
  schema: S,
): MiddlewareHandler<Env, string, { in: { json: z.input<S> }; out: { json: z.output<S> } }> {
  const asJson = jsonBody(schema);
  return async (c, next) => {
    if (!c.req.header('content-type')?.toLowerCase().startsWith('multipart/form-data')) return asJson(c, next);
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw malformed('The form could not be read.');
    }
    const text = (name: string) => {
      const value = form[name];
      if (typeof value !== 'string') throw malformed(`The form has no ${name}.`);
      return value;
    };
    const files = (name: string) => [form[name] ?? []].flat().filter((f): f is File => typeof f !== 'string');
    const json = (name: string): unknown => {
      try {
        return JSON.parse(text(name));
      } catch {
        throw malformed(`The form's ${name} is not valid JSON.`);
      }
    };
    const post = schema.safeParse(json('post'));
    if (!post.success) throw createValidationError(fieldErrors(post.error));
    const ids = photoIdsSchema.safeParse(json('photoIds'));
    if (!ids.success) throw malformed('The photos’ ids must be a list of UUIDs.');
    const [photos, thumbs] = [files('photo'), files('thumb')];
    if (photos.length !== ids.data.length || thumbs.length !== ids.data.length)
      throw malformed('Each photo needs its thumbnail, and one id each.');
    const uploads = await Promise.all(
      ids.data.map(async (id, i) => ({
        id,
        bytes: new Uint8Array(await photos[i]!.arrayBuffer()),
        thumb: new Uint8Array(await thumbs[i]!.arrayBuffer()),
      })),
    );
    sent.set(c.req.raw, uploads);
    c.req.addValidatedData('json', post.data as object);
    await next();
  };
}
