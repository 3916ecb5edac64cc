import type {
  CreateTestimonialInput,
  MoveTestimonialInput,
  Testimonial,
  UpdateTestimonialInput,
} from '../../../common/testimonials.ts';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { refreshSources } from '../../offline/engine.ts';

const one = client.api.testimonials[':id'];
const param = (id: string) => ({ param: { id: encodeURIComponent(id) } });

/**
 * The admin's testimonials, online only: the whole list (hidden ones too, which the device's public copy never
 * holds) and the changes. After each change the engine reads the public list again, so this device's
 * /testimonials follows at once; other devices hear the change's notice.
 */
export const testimonialsAdminApi = {
  async list(signal?: AbortSignal): Promise<Testimonial[]> {
    return (await readJson(await client.api.testimonials.all.$get({}, { init: { signal } }))).testimonials;
  },
  async create(input: CreateTestimonialInput): Promise<Testimonial> {
    return changed(await readJson(await client.api.testimonials.$post({ json: input })));
  },
  async update(id: string, input: UpdateTestimonialInput): Promise<Testimonial> {
    return changed(await readJson(await one.$patch({ ...param(id), json: input })));
  },
  async move(id: string, input: MoveTestimonialInput): Promise<Testimonial[]> {
    return changed((await readJson(await one.move.$post({ ...param(id), json: input }))).testimonials);
  },
};

function changed<T>(answer: T): T {
  void refreshSources('testimonials');
  return answer;
}
