import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { RefObject } from 'react';
import type { ConfirmOptions } from './confirm-dialog.tsx';

/** The alert dialog of `ConfirmProvider` (confirm-dialog.tsx), open while `options` is set. */
export function ConfirmDialog({
  options,
  answer,
  returnFocusTo,
}: {
  options: ConfirmOptions | null;
  answer: (value: boolean) => void;
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  return (
    <AlertDialog.Root open={options !== null} onOpenChange={(open) => !open && answer(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-950/50 dark:bg-black/70" />
        <AlertDialog.Content
          onCloseAutoFocus={(event) => {
            if (returnFocusTo.current?.isConnected) {
              event.preventDefault();
              returnFocusTo.current.focus();
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-600 dark:bg-slate-900 dark:shadow-black/60"
        >
          <AlertDialog.Title className="text-lg font-semibold">{options?.title ?? 'Please confirm'}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-slate-700 dark:text-slate-300">
            {options?.message}
          </AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className="btn-secondary" onClick={() => answer(false)}>
              {options?.cancelLabel ?? 'Cancel'}
            </AlertDialog.Cancel>
            <AlertDialog.Action
              className={options?.destructive ? 'btn-danger' : 'btn-primary'}
              onClick={() => answer(true)}
            >
              {options?.confirmLabel ?? 'Yes'}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
