import { ArrowLeft } from 'lucide-react';
import { useId } from 'react';
import { Link, useParams } from 'react-router-dom';
import { catalogueMessages } from '../../../common/catalogue.messages.ts';
import type { Module } from '../../../common/catalogue.ts';
import { formatRand } from '../../../common/money.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { BookNowButton } from './book-now-button.tsx';
import { CatalogueError, StaleNotice } from './catalogue-states.tsx';
import { useModules } from './use-modules.ts';

function BackToCourses() {
  return (
    <Link to="/offers" className="link inline-flex min-h-11 items-center gap-2">
      <ArrowLeft aria-hidden size={18} />
      Back to Courses
    </Link>
  );
}

/**
 * /modules/:slug (spec §2): one module from the local catalogue. "Not found" is decided only once this
 * visit's refresh has ended, so a module added since the last visit does not flash as missing. `extra`: what
 * app/ shows under the module (its group sessions: features do not import each other).
 */
export function ModulePage({ extra }: { extra?: (module: Module) => React.ReactNode } = {}) {
  const { slug } = useParams();
  const catalogue = useModules();
  const module = catalogue.data?.find((m) => m.slug === slug);

  let body: React.ReactNode;
  if (module) body = <ModuleDetails module={module} />;
  else if (catalogue.status === 'loading' || catalogue.refreshing) body = <ModuleSkeleton />;
  else if (catalogue.status === 'unavailable') body = <CatalogueError table={catalogue} />;
  else body = <ModuleNotFound />;

  return (
    <section className="container-page py-6 sm:py-10">
      <BackToCourses />
      {module && (
        <div className="mt-2">
          <StaleNotice table={catalogue} />
        </div>
      )}
      {body}
      {module && extra?.(module)}
    </section>
  );
}

function ModuleDetails({ module }: { module: Module }) {
  const nameId = useId();
  return (
    <article aria-labelledby={nameId} className="card mt-4 sm:p-8">
      <PageMeta
        title={module.name}
        description={
          module.description || `${module.name}: one-on-one tutoring at ${formatRand(module.priceCents)} an hour.`
        }
      />
      <p className="text-sm font-semibold tracking-wide text-brand-800 uppercase dark:text-brand-200">
        {module.category}
      </p>
      <h1 id={nameId} className="mt-1 text-3xl font-bold">
        {module.name}
      </h1>
      <p className="mt-3 text-2xl font-semibold">{formatRand(module.priceCents)}/hour</p>
      {module.description && (
        <p className="mt-4 max-w-prose text-slate-700 dark:text-slate-300">{module.description}</p>
      )}
      {module.topics.length > 0 && (
        <>
          <h2 className="mt-6 text-lg font-semibold">Topics we cover</h2>
          <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-700 dark:text-slate-300">
            {module.topics.map((topic) => (
              <li key={topic}>{topic}</li>
            ))}
          </ul>
        </>
      )}
      <BookNowButton module={module} className="btn-primary mt-8 w-full sm:w-auto" />
    </article>
  );
}

function ModuleNotFound() {
  return (
    <div className="card mt-4 sm:p-8">
      <PageMeta title={catalogueMessages.notFound} description="This module is not in the catalogue." />
      <h1 className="text-3xl font-bold">{catalogueMessages.notFound}</h1>
      <p className="mt-3 text-slate-700 dark:text-slate-300">
        We could not find that module. It may have been removed from the catalogue, or the link may be mistyped.
      </p>
      <Link to="/offers" className="btn-primary mt-6">
        See all courses
      </Link>
    </div>
  );
}

function ModuleSkeleton() {
  return (
    <div className="card mt-4 sm:p-8">
      <p role="status" className="sr-only">
        Loading module…
      </p>
      <div aria-hidden className="animate-pulse">
        <div className="h-4 w-32 rounded bg-slate-200 dark:bg-slate-700" />
        <div className="mt-3 h-8 w-3/4 rounded bg-slate-200 dark:bg-slate-700" />
        <div className="mt-4 h-7 w-28 rounded bg-slate-200 dark:bg-slate-700" />
        <div className="mt-6 h-20 rounded bg-slate-200 dark:bg-slate-700" />
      </div>
    </div>
  );
}
