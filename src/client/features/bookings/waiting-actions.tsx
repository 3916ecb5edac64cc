import { Link } from 'react-router-dom';
import { Notice } from '../../components/notice.tsx';

/** The request is on its way: the form is locked to it until it ends, and the student may move on. */
export function WaitingActions({ onAnother }: { onAnother: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <Notice tone="info">It shows on your dashboard as waiting to send until it reaches us.</Notice>
      <div className="flex flex-wrap gap-3">
        <Link to="/student-dashboard" className="btn-primary">
          Go to your dashboard
        </Link>
        <button type="button" className="btn-secondary" onClick={onAnother}>
          Book another session
        </button>
      </div>
    </div>
  );
}
