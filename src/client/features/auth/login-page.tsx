import { Link, useSearchParams } from 'react-router-dom';
import { PageMeta } from '../../components/page-meta.tsx';
import { AuthCard } from './auth-card.tsx';
import { GoogleButton } from './google-button.tsx';
import { LoginForm } from './login-form.tsx';

export function LoginPage() {
  const [params] = useSearchParams();
  const confirming = params.has('verify');
  const linkError = params.get('error');
  return (
    <AuthCard title="Log in" intro="Welcome back. Log in to book sessions and see your dashboard.">
      <PageMeta title="Log in" description="Log in to TutorBook to book tutoring and see your sessions." />
      {confirming && !linkError && (
        <p role="status" className="mb-4 rounded-lg border border-green-200 bg-green-50 p-3 text-sm font-medium text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100">
          Log in with the password you chose to confirm your e-mail address.
        </p>
      )}
      {linkError && (
        <p role="alert" className="mb-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm font-medium text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100">
          That link is invalid or has expired. Log in to get a new verification e-mail, or sign up again.
        </p>
      )}
      <LoginForm />
      <GoogleButton label="Continue with Google" />
      <p className="mt-6 text-center text-sm">
        New here? <Link to="/signup" className="link">Create an account</Link>
      </p>
    </AuthCard>
  );
}
