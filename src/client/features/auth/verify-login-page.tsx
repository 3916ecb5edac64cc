import { brand } from '../../../common/brand.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { GoogleButton } from './google-button.tsx';
import { LoginForm } from './login-form.tsx';

/** Spec §2: an e-mail login form plus Continue with Google, without navbar or footer. */
export function VerifyLoginPage() {
  return (
    <div className="card w-full max-w-md p-6 sm:p-8">
      <PageMeta title="Log in" description={`Log in to ${brand.name}.`} />
      <p className="text-lg font-bold text-brand-800 dark:text-brand-200">{brand.name}</p>
      <h1 className="mt-2 mb-6 text-2xl font-bold">Log in with your email</h1>
      <LoginForm showLinks={false} />
      <GoogleButton label="Continue with Google" />
    </div>
  );
}
