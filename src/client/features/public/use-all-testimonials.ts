import { useCallback, useEffect, useState } from 'react';
import type { Testimonial } from '../../../common/testimonials.ts';
import { NetworkError } from '../../lib/api.ts';
import { testimonialsAdminApi } from './testimonials-admin-api.ts';

export type AllTestimonials =
  | { status: 'loading'; data?: undefined }
  | { status: 'ready'; data: Testimonial[] }
  | { status: 'offline' | 'failed'; data?: Testimonial[] | undefined };

/**
 * Every testimonial, hidden ones too, read from the server when the admin's section opens (the device keeps only
 * the public ones). `replace` takes a list a change answered with; `put` one testimonial it answered with.
 */
export function useAllTestimonials() {
  const [state, setState] = useState<AllTestimonials>({ status: 'loading' });

  const load = useCallback((signal?: AbortSignal) => {
    testimonialsAdminApi.list(signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: unknown) => {
        if (signal?.aborted) return;
        setState((s) => ({ status: error instanceof NetworkError ? 'offline' : 'failed', data: s.data }));
      },
    );
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    load(abort.signal);
    return () => abort.abort();
  }, [load]);

  const replace = useCallback((data: Testimonial[]) => setState({ status: 'ready', data }), []);
  const put = useCallback(
    (changed: Testimonial) =>
      setState((s) => {
        const data = s.data ?? [];
        const next = data.some((t) => t.id === changed.id)
          ? data.map((t) => (t.id === changed.id ? changed : t))
          : [...data, changed];
        return { status: 'ready', data: next };
      }),
    [],
  );
  return { ...state, reload: () => load(), replace, put };
}
