import type { Booking, BookingChanges, BookingPage, BookingStatus } from '../../../common/bookings.ts';
import { api, type RequestOptions } from '../../lib/api.ts';
import type { BookingRequestInput } from './booking-rules.ts';

/** The staff's filters of `GET /api/bookings` (a student's list is always their own). */
export interface BookingFilters {
  status?: BookingStatus | undefined;
  category?: string | undefined;
  /** Session dates from and to, inclusive, `YYYY-MM-DD`. */
  from?: string | undefined;
  to?: string | undefined;
}

const path = (id: string) => `/api/bookings/${encodeURIComponent(id)}`;

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
  return search.size ? `?${search}` : '';
}

/** Every call the bookings feature makes, in one place. */
export const bookingsApi = {
  /** A page of the bookings the caller may see, newest session first. */
  list: (filters: BookingFilters = {}, cursor?: string, options?: RequestOptions) => api.get<BookingPage>(`/api/bookings${query({ ...filters, cursor })}`, options),
  /** What changed after `version` (the cursor of the bookings source). */
  changes: (since: string, options?: RequestOptions) => api.get<BookingChanges>(`/api/bookings${query({ since })}`, options),
  /** Replay-safe: the same id again answers with the stored booking. */
  request: (input: BookingRequestInput) => api.post<Booking>('/api/bookings', input),
  confirm: (id: string, slot: string, version: number) => api.post<Booking>(`${path(id)}/confirm`, { slot, version }),
  setStatus: (id: string, status: BookingStatus, version: number) => api.put<Booking>(`${path(id)}/status`, { status, version }),
  cancel: (id: string) => api.post<Booking>(`${path(id)}/cancel`),
  /** The lead time the server enforces (`BOOKING_MIN_LEAD_HOURS`). */
  leadHours: async (options?: RequestOptions) => (await api.get<{ bookingMinLeadHours: number }>('/api/config', options)).bookingMinLeadHours,
};
