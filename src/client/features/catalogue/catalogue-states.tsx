import { catalogueMessages } from '../../../common/catalogue.messages.ts';
import { Notice } from '../../components/notice.tsx';
import type { LocalData } from '../../offline/hooks.ts';

/** Nothing stored yet and the fetch failed: say so, and offer to try again. */
export function CatalogueError({ table }: { table: LocalData<unknown> }) {
  return (
    <div className="card mt-6 flex flex-col items-start gap-4">
      <Notice tone="error">
        <p>{catalogueMessages.fetchFailed}</p>
        {table.failure === 'offline' && (
          <p className="mt-1 font-normal">
            You appear to be offline. The courses appear here once you have opened this page with a connection.
          </p>
        )}
      </Notice>
      <button type="button" className="btn-secondary" onClick={table.retry}>
        Try again
      </button>
    </div>
  );
}

/** Shown above what IndexedDB holds when the fresh copy could not be fetched. */
export function StaleNotice({ table }: { table: LocalData<unknown> }) {
  if (table.failure === 'offline')
    return (
      <Notice tone="offline">You are offline. Showing the courses as they were when you last had a connection.</Notice>
    );
  if (table.failure === 'failed')
    return <Notice tone="error">{catalogueMessages.fetchFailed} Showing the courses as they were last loaded.</Notice>;
  return null;
}

/** Grey blocks the size of the cards, so the page does not jump when they arrive. */
export function CardSkeletons({ count = 3, className = 'h-52' }: { count?: number; className?: string }) {
  return (
    <div aria-hidden className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={`card animate-pulse bg-slate-100 dark:bg-slate-800 ${className}`} />
      ))}
    </div>
  );
}
