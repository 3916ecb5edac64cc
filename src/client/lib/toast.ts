import { useSyncExternalStore } from 'react';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;

/**
 * Toasts (sonner) are not part of the first load: the toaster's code loads once the page is idle, the toaster
 * is put on the page with the first toast (app/app.tsx), and what is raised before it is on screen waits for it.
 */
let sonner: Sonner | undefined;
const waiting: ((show: Sonner) => void)[] = [];
let wanted = false;
const listeners = new Set<() => void>();

function run(action: (show: Sonner) => void, { load = true } = {}) {
  if (sonner) return action(sonner);
  waiting.push(action);
  if (load) wantToaster();
}

/** Asks for the toaster to be loaded and shown (the first toast). */
function wantToaster() {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

/** Whether the toaster should be on the page yet. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}

/** Called by the toaster once it listens (sonner is loaded by then): the toasts raised meanwhile show now. */
export function toasterReady() {
  void import('sonner').then(({ toast: show }) => {
    sonner = show;
    for (const action of waiting.splice(0)) action(show);
  });
}

type Kind = 'success' | 'error' | 'info' | 'message';

/** A toast's id is its text, so the same alert raised twice (a double click, a retry) is one toast, not a stack. */
const once =
  (kind: Kind) =>
  (message: string, data?: ExternalToast): void =>
    run((show) => {
      const options = { id: message, ...data };
      if (kind === 'message') show(message, options);
      else show[kind](message, options);
    });

/** The app's alerts (the spec's texts among them): every toast goes through here. */
export const toast = {
  success: once('success'),
  error: once('error'),
  info: once('info'),
  message: once('message'),
  // Dismissing what is not shown yet needs no toaster: it waits behind the toasts it would dismiss.
  dismiss: (id?: string | number) => run((show) => show.dismiss(id), { load: false }),
};
