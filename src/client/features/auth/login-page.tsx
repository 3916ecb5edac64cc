import { Link, useSearchParams } from 'react-router-dom';
import { PageMeta } from '../../components/page-meta.tsx';
import { markVisitedHome } from '../../lib/visited-home.ts';
import { AuthCard } from './auth-card.tsx';
import { GoogleButton } from './google-button.tsx';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  const [params] = useSearchParams();
  const confirming = params.has('verify');
  const googleError = params.has('google_error') ? googleErrorMessage(params.get('error')) : undefined;
  const linkError = !googleError && params.has('error');
  return (
    <AuthCard title="Log in" intro="Welcome back. Log in to book sessions and see your dashboard.">
      <PageMeta title="Log in" description="Log in to TutorBook to book tutoring and see your sessions." />
      {confirming && !linkError && (
        <p
          role="status"
          className="mb-4 rounded-lg border border-green-200 bg-green-50 p-3 text-sm font-medium text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100"
        >
          Log in with the password you chose to confirm your e-mail address.
        </p>
      )}
      {linkError && (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
        >
          That link is invalid or has expired. Log in, and you can ask for a new one.
        </p>
      )}
      {googleError && (
        <p
          role="alert"
          className="mb-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          {googleError}
        </p>
      )}
      <LoginForm />
      <GoogleButton label="Continue with Google" />
      <p className="mt-6 text-center text-sm">
        {/* The visited-home flag (spec §2) is for the address typed in; a link of ours always reaches the form. */}
        New here?{' '}
        <Link to="/signup" className="link" onClick={markVisitedHome}>
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}

/** Google sends the user back with an error code only (better-auth's `?error=`). */
function googleErrorMessage(code: string | null): string {
  // An account with this address exists whose address was never confirmed: it is not linked (docs/decisions/0003).
  if (code === 'account_not_linked')
    return 'This e-mail address has an account that was never confirmed. Confirm it from the e-mail we sent, or use “Forgot Password?”.';
  return 'Google sign-in did not work. Please try again.';
}
