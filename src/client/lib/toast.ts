import { toast as sonner, type ExternalToast } from 'sonner';

type Show = (message: string, data?: ExternalToast) => string | number;

/** A toast's id is its text, so the same alert raised twice (a double click, a retry) is one toast, not a stack. */
const once =
  (show: (message: string, data?: ExternalToast) => string | number): Show =>
  (message, data) =>
    show(message, { id: message, ...data });

/** The app's alerts (the spec's texts among them): every toast goes through here. */
export const toast = {
  success: once(sonner.success),
  error: once(sonner.error),
  info: once(sonner.info),
  message: once(sonner),
  dismiss: sonner.dismiss,
};
