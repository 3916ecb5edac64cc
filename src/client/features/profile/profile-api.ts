import type { Enrolment } from '../../../common/profile.ts';
import { api, download } from '../../lib/api.ts';

export const profileApi = {
  enrol: (moduleId: string) => api.post<Enrolment>('/api/me/enrolments', { moduleId }),
  removeEnrolment: (id: string) => api.delete<{ removed: true }>(`/api/me/enrolments/${encodeURIComponent(id)}`),
  deleteAccount: () => api.delete<{ deleted: true }>('/api/me'),
  /** The JSON file of everything stored about the user; the server names it. */
  downloadMyData: () => download('/api/me/export'),
  // better-auth's endpoints, behind the server's validating front (src/server/auth/auth.routes.ts).
  updateName: (name: string) => api.post('/api/auth/update-user', { name }),
  /** Ends every other session of the account; this one goes on. */
  changePassword: (body: { currentPassword: string; newPassword: string }) => api.post('/api/auth/change-password', body),
};
