import { MessagesSquare } from 'lucide-react';
import { brand } from '../../../common/brand.ts';
import { ContactLinks } from '../../components/contact-links.tsx';
import { PageMeta } from '../../components/page-meta.tsx';

/** /qa until the community board is built: says so, and offers WhatsApp and e-mail for questions meanwhile. */
export function QaSoonPage() {
  return (
    <div className="container-page max-w-3xl py-10 sm:py-14">
      <PageMeta title="Community Q&A" description={`The ${brand.name} community board for questions and answers opens soon.`} />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Community Q&amp;A</h1>

      <section aria-labelledby="soon-title" className="card mt-6">
        <h2 id="soon-title" className="flex items-center gap-2 text-xl font-semibold">
          <MessagesSquare aria-hidden size={22} className="shrink-0 text-brand-700 dark:text-brand-300" />
          The community board opens soon
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          Soon you can ask questions here, answer other students and vote for the answers that help most.
        </p>
      </section>

      <section aria-labelledby="ask-title" className="mt-8">
        <h2 id="ask-title" className="text-xl font-semibold">
          Have a question now?
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">Send it to us by WhatsApp or e-mail and a tutor will get back to you.</p>
        <ContactLinks className="mt-5" message={`Hi ${brand.name}, I have a question: `} subject="A question for a tutor" />
      </section>
    </div>
  );
}
