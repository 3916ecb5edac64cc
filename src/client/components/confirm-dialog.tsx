import { createContext, lazy, Suspense, use, useCallback, useRef, useState, type ReactNode } from 'react';
import { useIdle } from '../lib/idle.ts';

export interface ConfirmOptions {
  title?: string;
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  destructive?: boolean;
}

type Confirm = (options: ConfirmOptions) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

// The dialog (Radix) is not part of the first load: it is loaded once the page is idle, or when a confirmation
// is asked for before that.
const ConfirmDialog = lazy(() => import('./confirm-dialog-view.tsx').then((m) => ({ default: m.ConfirmDialog })));

/**
 * The spec's confirmations ("Are you sure…?") as an accessible alert dialog: focus moves into it,
 * stays there, and returns to the button that opened it.
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  // Once loaded the dialog stays mounted, closed, so that closing it returns focus as Radix does.
  const [used, setUsed] = useState(false);
  const idle = useIdle();
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  // Opened from code rather than a Radix trigger, so the dialog cannot know where focus was: remember it.
  const returnFocusTo = useRef<HTMLElement | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOptions(next);
    setUsed(true);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  }, []);

  return (
    <ConfirmContext value={confirm}>
      {children}
      {(used || idle) && (
        <Suspense fallback={null}>
          <ConfirmDialog options={options} answer={answer} returnFocusTo={returnFocusTo} />
        </Suspense>
      )}
    </ConfirmContext>
  );
}

export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
