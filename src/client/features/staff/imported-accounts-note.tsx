import { useEffect, useState } from 'react';
import { Notice } from '../../components/notice.tsx';
import { readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';

/**
 * One line on the admin's dashboard after the move-in from the old Firebase site: how many imported accounts
 * have not logged in with their old password yet (`GET /api/staff/imported-accounts`). Shown only when there
 * are some; read once the page is up, online only (it is not kept offline), and silent when it cannot be read.
 */
export function ImportedAccountsNote() {
  const [waiting, setWaiting] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    client.api.staff['imported-accounts']
      .$get({}, { init: { signal: controller.signal } })
      .then(readJson)
      .then((answer) => setWaiting(answer.waitingForFirstLogin))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  if (waiting === 0) return null;
  const one = waiting === 1;
  return (
    <Notice tone="info" className="mt-4">
      {one ? '1 account' : `${waiting} accounts`} brought from the old site {one ? 'has' : 'have'} not logged in with{' '}
      {one ? 'its' : 'their'} old password yet.
    </Notice>
  );
}
