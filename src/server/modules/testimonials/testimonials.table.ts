export interface TestimonialsTable {
  id: string;
  name: string;
  course: string;
  quote: string;
  /** 1 when hidden from the public pages, else 0 (an integer on every SQL engine). */
  hidden: number;
  position: number;
  created_at: string;
  updated_at: string;
}
