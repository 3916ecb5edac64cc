import type { Enrolment } from '../../../common/profile.ts';
import { api } from '../../lib/api.ts';

export const profileApi = {
  enrol: (moduleId: string) => api.post<Enrolment>('/api/me/enrolments', { moduleId }),
  removeEnrolment: (id: string) => api.delete<{ removed: true }>(`/api/me/enrolments/${encodeURIComponent(id)}`),
  deleteAccount: () => api.delete<{ deleted: true }>('/api/me'),
};
