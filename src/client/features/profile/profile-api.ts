import { apiRequest, readJson } from '../../lib/api.ts';
import { download } from '../../lib/download.ts';
import { client } from '../../lib/api-client.ts';

export const profileApi = {
  enrol: async (moduleId: string) => readJson(await client.api.me.enrolments.$post({ json: { moduleId } })),
  removeEnrolment: async (id: string) =>
    readJson(await client.api.me.enrolments[':id'].$delete({ param: { id: encodeURIComponent(id) } })),
  deleteAccount: async () => readJson(await client.api.me.$delete()),
  /** The JSON file of everything stored about the user; the server names it. */
  downloadMyData: () => download(client.api.me.export.$path()),
  /** The new name reaches the account and the bookings at once (docs/decisions/0025). */
  updateName: async (name: string) => readJson(await client.api.me.name.$put({ json: { name } })),
  // better-auth's endpoint, behind the server's validating front (src/server/auth/auth.routes.ts).
  /** Ends every other session of the account; this one goes on. */
  changePassword: (body: { currentPassword: string; newPassword: string }) =>
    apiRequest('POST', '/api/auth/change-password', body),
};
