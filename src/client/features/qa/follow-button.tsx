import { Bell, BellOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isSessionEnded, readJson } from '../../lib/api.ts';
import { client } from '../../lib/api-client.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';

const follow = client.api.questions[':id'].follow;

/**
 * Follow a question (issue 38 §1): its answers reach the follower through the channels they chose. The asker
 * follows from the start. Needs the connection: offline, or until the state is read, the button is there but
 * disabled (so that nothing moves when it comes), as wide as either of its labels.
 */
export function FollowButton({ questionId }: { questionId: string }) {
  const [following, setFollowing] = useState<boolean>();
  const [readFailed, setReadFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    void follow
      .$get({ param: { id: questionId } })
      .then(readJson)
      .then(
        (state) => current && setFollowing(state.following),
        () => current && setReadFailed(true),
      );
    return () => {
      current = false;
    };
  }, [questionId]);

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

  const known = following !== undefined;
  return (
    <button
      type="button"
      className="btn-secondary min-w-36"
      aria-pressed={known ? following : undefined}
      disabled={busy || !known}
      onClick={() => void toggle()}
      title={
        readFailed
          ? 'Following a question needs the connection'
          : following
            ? 'Stop hearing of new answers'
            : 'Hear of new answers, as you chose on your profile'
      }
    >
      {following ? <BellOff aria-hidden size={18} /> : <Bell aria-hidden size={18} />}
      {following ? 'Following' : 'Follow'}
    </button>
  );
}
