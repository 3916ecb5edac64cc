import { Link } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';

function Message({ code, title, text }: { code: string; title: string; text: string }) {
  return (
    <section className="container-page flex flex-col items-center py-20 text-center">
      <PageMeta title={title} description={text} />
      <p className="text-5xl font-bold text-brand-700 dark:text-brand-300">{code}</p>
      <h1 className="mt-4 text-2xl font-bold">{title}</h1>
      <p className="mt-2 max-w-md text-slate-700 dark:text-slate-300">{text}</p>
      <Link to="/" className="btn-primary mt-8">
        Go to the home page
      </Link>
    </section>
  );
}

export function NotFoundPage() {
  return (
    <Message
      code="404"
      title="Page not found"
      text="We could not find that page. It may have moved, or the link may be mistyped."
    />
  );
}

export function NotAllowedPage() {
  return (
    <Message
      code="403"
      title="Not allowed"
      text="Your account does not have access to this page. If you think it should, please contact us."
    />
  );
}
