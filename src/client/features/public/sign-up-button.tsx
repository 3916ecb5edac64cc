import { BookOpen, UserPlus } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useSession } from '../../lib/session.tsx';
import { markVisitedHome } from '../../lib/visited-home.ts';

/**
 * The shared btn-primary turns brand-600 in dark mode, which is below 4.5:1 against white text;
 * this keeps brand-700 (AA in both schemes).
 */
const primary = 'btn bg-brand-700 text-white hover:bg-brand-800';

/** Spec §2: sets the visited-home flag first, so /signup does not send the visitor back to /. */
export function SignUpButton({ label = 'Sign Up', className = primary }: { label?: string; className?: string }) {
  const navigate = useNavigate();
  const { session } = useSession();
  // Someone signed in has an account: the same place on the page offers the courses instead.
  if (session.status === 'signed-in') {
    return (
      <Link to="/offers" className={className}>
        <BookOpen aria-hidden size={20} />
        Browse courses
      </Link>
    );
  }
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        markVisitedHome();
        void navigate('/signup');
      }}
    >
      <UserPlus aria-hidden size={20} />
      {label}
    </button>
  );
}
