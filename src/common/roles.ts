export const roles = ['student', 'tutor', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Subject categories: each tutor runs the bookings of one or more of them. */
export const categories = ['Computer Science', 'Mathematics', 'Statistics'] as const;
export type Category = (typeof categories)[number];

/** Where the navbar's Dashboard link takes each role (spec §2). */
export const dashboardPathByRole: Record<Role, string> = {
  admin: '/admin-dashboard',
  tutor: '/tutor-dashboard',
  student: '/student-dashboard',
};
