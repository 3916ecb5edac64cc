import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { createContext, use, useCallback, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title?: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

/**
 * The spec's confirmations ("Are you sure…?") as an accessible alert dialog: focus moves into it,
 * stays there, and returns to the button that opened it.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  // Opened from code rather than a Radix trigger, so the dialog cannot know where focus was: remember it.
  const returnFocusTo = useRef<HTMLElement | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOptions(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  };

  return (
    <ConfirmContext value={confirm}>
      {children}
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
            className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-xl dark:border-slate-600 dark:bg-slate-900 dark:shadow-black/60">
            <AlertDialog.Title className="text-lg font-semibold">{options?.title ?? 'Please confirm'}</AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-slate-700 dark:text-slate-300">{options?.message}</AlertDialog.Description>
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel className="btn-secondary" onClick={() => answer(false)}>
                {options?.cancelLabel ?? 'Cancel'}
              </AlertDialog.Cancel>
              <AlertDialog.Action className={options?.destructive ? 'btn-danger' : 'btn-primary'} onClick={() => answer(true)}>
                {options?.confirmLabel ?? 'Yes'}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </ConfirmContext>
  );
}

export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
