import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import { sessionMessages } from '../../../common/session.messages.ts';
import { useSession } from '../../lib/session.tsx';

/** After Google sends the user back (`?google=login|signup`), the spec's alert, once. */
export function GoogleReturnNotice() {
  const [params, setParams] = useSearchParams();
  const { refresh } = useSession();
  const google = params.get('google');
  useEffect(() => {
    if (google !== 'login' && google !== 'signup') return;
    void refresh().then((me) => {
      if (me)
        toast.success(
          google === 'signup' ? sessionMessages.signedUpWithGoogle(me.name) : sessionMessages.loggedInWithGoogle,
        );
    });
    setParams(
      (p) => {
        p.delete('google');
        return p;
      },
      { replace: true },
    );
  }, [google, refresh, setParams]);
  return null;
}
