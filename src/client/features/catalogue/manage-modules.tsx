import { useEffect, useId } from 'react';
import { catalogueMessages } from '../../../common/catalogue.ts';
import { Notice } from '../../components/notice.tsx';
import { toast } from '../../lib/toast.ts';
import { AddModuleForm } from './add-module-form.tsx';
import { ModuleRow } from './module-row.tsx';
import { useModules } from './use-modules.ts';

/** Spec §2 admin dashboard, Manage Modules: add, list with +R10, edit every field, delete. */
export function ManageModules() {
  const catalogue = useModules();
  const headingId = useId();

  // Spec §8 Admin: 'Failed to fetch modules.' when the server answered with an error.
  useEffect(() => {
    if (catalogue.failure === 'failed') toast.error(catalogueMessages.fetchFailed);
  }, [catalogue.failure]);

  const modules = catalogue.data ?? [];
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold">
        Manage Modules
      </h2>
      <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-[22rem_1fr] lg:items-start">
        <AddModuleForm />
        <div className="min-w-0">
          {catalogue.failure === 'offline' && (
            <Notice tone="offline" className="mb-4">
              You are offline: the list is as it was last loaded. {catalogueMessages.offline}
            </Notice>
          )}
          {catalogue.failure === 'failed' && (
            <Notice tone="error" className="mb-4">
              {catalogueMessages.fetchFailed}
            </Notice>
          )}
          {catalogue.status === 'loading' ? (
            <div className="card h-40 animate-pulse bg-slate-100 dark:bg-slate-800">
              <span role="status" className="sr-only">
                Loading modules…
              </span>
            </div>
          ) : modules.length === 0 ? (
            <p className="card text-slate-700 dark:text-slate-300">
              {catalogue.status === 'empty'
                ? 'No modules yet. Add the first one with the form.'
                : catalogueMessages.fetchFailed}
            </p>
          ) : (
            <ul className="flex flex-col gap-4" aria-label="Modules">
              {modules.map((module) => (
                <li key={module.id}>
                  <ModuleRow module={module} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
