import { useLocation } from 'react-router-dom';
import { PageMeta } from '../components/page-meta.tsx';

const titles: Record<string, string> = {
  '/qa': 'Community Q&A',
  '/booking': 'Book a session',
};

/** Signed-in pages whose features are still being built. */
export function ComingSoonPage() {
  const { pathname } = useLocation();
  const title = titles[pathname] ?? 'Coming soon';
  return (
    <section className="container-page py-12">
      <PageMeta title={title} description={`${title} on TutorBook.`} />
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="mt-4 text-slate-700 dark:text-slate-300">This part of TutorBook is on its way. Please check back soon.</p>
    </section>
  );
}
