import { Pencil, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { catalogueMessages, formatRand, type Module } from '../../../common/catalogue.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { isOffline } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toast } from '../../lib/toast.ts';
import { catalogueAdminApi } from './catalogue-admin-api.ts';
import { EditModuleForm } from './edit-module-form.tsx';

/** One module in Manage Modules: what it is, and +R10, Edit (the form opens in place) and Delete. */
export function ModuleRow({ module }: { module: Module }) {
  const confirm = useConfirm();
  const nameId = useId();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);

  // Keyboard users land back where they were when the form closes (saved or cancelled).
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  async function run(action: () => Promise<unknown>, done: string, failed: string) {
    if (isOffline()) return void toast.error(catalogueMessages.offline);
    setBusy(true);
    try {
      await action();
      toast.success(done);
    } catch (error) {
      toast.error(errorText(error, failed, { offline: catalogueMessages.offline }));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (
      !(await confirm({
        title: 'Delete module',
        message: catalogueMessages.deleteConfirm(module.name),
        confirmLabel: 'Delete',
        destructive: true,
      }))
    )
      return;
    await run(() => catalogueAdminApi.remove(module.id), catalogueMessages.deleted, catalogueMessages.deleteFailed);
  }

  return (
    <article aria-labelledby={nameId} className="card">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={nameId} className="text-lg font-semibold">
          {module.name}
        </h3>
        <p className="font-semibold text-brand-800 dark:text-brand-200">{formatRand(module.priceCents)}/hour</p>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {module.category} ·{' '}
        {/* A long slug breaks after its hyphens (or, one part too long for the line, inside it), and may start a
            line of its own: not mid-word anywhere, as break-all did. */}
        <Link to={`/modules/${module.slug}`} className="link wrap-anywhere">
          /modules/
          <wbr />
          {module.slug}
        </Link>
      </p>
      {editing ? (
        <EditModuleForm module={module} onDone={() => setEditing(false)} />
      ) : (
        <>
          {module.description && (
            <p className="mt-3 line-clamp-3 text-slate-700 dark:text-slate-300">{module.description}</p>
          )}
          {module.topics.length > 0 && (
            <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">Topics: {module.topics.join(', ')}</p>
          )}
          <div className="mt-4 grid grid-cols-3 gap-2 sm:flex sm:gap-3">
            <button
              type="button"
              className="btn-secondary"
              aria-describedby={nameId}
              disabled={busy}
              onClick={() =>
                void run(
                  () => catalogueAdminApi.raisePrice(module.id),
                  catalogueMessages.updated,
                  catalogueMessages.updateFailed,
                )
              }
            >
              +R10
            </button>
            <button
              ref={editButton}
              type="button"
              className="btn-secondary"
              aria-describedby={nameId}
              disabled={busy}
              onClick={() => setEditing(true)}
            >
              <Pencil aria-hidden size={18} className="hidden sm:block" />
              Edit
            </button>
            <button
              type="button"
              className="btn-danger"
              aria-describedby={nameId}
              disabled={busy}
              onClick={() => void remove()}
            >
              <Trash2 aria-hidden size={18} className="hidden sm:block" />
              Delete
            </button>
          </div>
        </>
      )}
    </article>
  );
}
