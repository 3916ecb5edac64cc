export interface EnrolmentsTable {
  id: string;
  user_id: string;
  /** Null once the module has been deleted; `module_name` keeps the enrolment readable. */
  module_id: string | null;
  module_name: string;
  created_at: string;
}
