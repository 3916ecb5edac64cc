import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Module } from '../../../common/catalogue.ts';
import { formatRand } from '../../../common/money.ts';
import { categories } from '../../../common/roles.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { BookNowButton } from './book-now-button.tsx';
import { CardSkeletons, CatalogueError, StaleNotice } from './catalogue-states.tsx';
import { useModules } from './use-modules.ts';

/**
 * /offers (spec §2): every module, grouped by category, each with its hourly price and Book Now. Read from
 * IndexedDB, so it opens offline once seen; refreshed from the server when the page opens. `extra` goes under
 * the modules once they are shown (app/offers-route.tsx: the monthly packages).
 */
export function OffersPage({ extra }: { extra?: ReactNode }) {
  const catalogue = useModules();
  const modules = catalogue.data ?? [];

  return (
    <section className="container-page py-10">
      <PageMeta
        title="Courses"
        description="Tutoring modules in computer science, mathematics and statistics, with hourly prices."
      />
      <h1 className="text-3xl font-bold">Courses</h1>
      <p className="mt-2 max-w-2xl text-slate-700 dark:text-slate-300">
        One-on-one tutoring by the hour. Choose a module to see what it covers, or book a session straight away.
      </p>

      {catalogue.status === 'loading' ? (
        <>
          <p role="status" className="mt-8 text-slate-700 dark:text-slate-300">
            Loading modules…
          </p>
          <CardSkeletons count={6} />
        </>
      ) : catalogue.status === 'unavailable' ? (
        <CatalogueError table={catalogue} />
      ) : (
        <>
          <StaleNotice table={catalogue} />
          {catalogue.status === 'empty' ? (
            <p className="card mt-8 text-slate-700 dark:text-slate-300">
              No modules are offered at the moment. Please check back soon.
            </p>
          ) : (
            categories.map((category) => (
              <CategorySection
                key={category}
                category={category}
                modules={modules.filter((m) => m.category === category)}
              />
            ))
          )}
        </>
      )}
      {/* Once the modules are in: below cards that replace their placeholders, it would be pushed as they come. */}
      {catalogue.status !== 'loading' && extra}
    </section>
  );
}

function CategorySection({ category, modules }: { category: string; modules: Module[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-10">
      <h2 id={headingId} className="text-xl font-semibold">
        {category}
      </h2>
      {modules.length === 0 ? (
        <p className="mt-3 text-slate-700 dark:text-slate-300">No modules in this category yet.</p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {modules.map((module) => (
            <li key={module.id} className="flex">
              <ModuleCard module={module} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ModuleCard({ module }: { module: Module }) {
  const nameId = useId();
  return (
    <article aria-labelledby={nameId} className="card flex w-full flex-col">
      <h3 id={nameId} className="text-lg font-semibold">
        {module.name}
      </h3>
      {module.description && (
        <p className="mt-2 line-clamp-3 text-sm text-slate-700 dark:text-slate-300">{module.description}</p>
      )}
      {/* Price and actions sit at the bottom, so they line up across a row of cards. */}
      <p className="mt-auto pt-3 font-semibold text-brand-800 dark:text-brand-200">
        Price: {formatRand(module.priceCents)}/hour
      </p>
      <div className="flex gap-3 pt-4">
        <Link to={`/modules/${module.slug}`} className="btn-secondary flex-1" aria-describedby={nameId}>
          Details
        </Link>
        <BookNowButton module={module} describedBy={nameId} className="btn-primary flex-1" />
      </div>
    </article>
  );
}
