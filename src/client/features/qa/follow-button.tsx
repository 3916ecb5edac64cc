import { Bell, BellOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isSessionEnded, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';

const follow = client.api.questions[':id'].follow;

/**
 * Follow a question (issue 38 §1): its answers reach the follower through the channels they chose. The asker
 * follows from the start. Needs the connection: offline, or before the state is read, the button is not shown.
 */
export function FollowButton({ questionId }: { questionId: string }) {
  const [following, setFollowing] = useState<boolean>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void follow
      .$get({ param: { id: questionId } })
      .then(readJson)
      .then(
        (state) => current && setFollowing(state.following),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [questionId]);

  if (following === undefined) return null;

  async function toggle() {
    setBusy(true);
    try {
      const state = await readJson(await follow.$put({ param: { id: questionId }, json: { following: !following } }));
      setFollowing(state.following);
      toast.success(state.following ? 'You will hear of new answers.' : 'You no longer follow this question.');
    } catch (error) {
      if (!isSessionEnded(error)) toast.error(errorText(error, 'Could not change that. Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      className="btn-secondary"
      aria-pressed={following}
      disabled={busy}
      onClick={() => void toggle()}
      title={following ? 'Stop hearing of new answers' : 'Hear of new answers, as you chose on your profile'}
    >
      {following ? <BellOff aria-hidden size={18} className="mr-2" /> : <Bell aria-hidden size={18} className="mr-2" />}
      {following ? 'Following' : 'Follow'}
    </button>
  );
}
