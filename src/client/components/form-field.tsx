import { Eye, EyeOff } from 'lucide-react';
import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string;
  invalidBy?: string | undefined;
}

/**
 * Label, input, hint and error, with the error announced and tied to the input. `invalidBy` marks the field
 * wrong by a message elsewhere (the id of one message about several fields), so the words are not repeated
 * under each of them.
 */
function FieldShell(props: {
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  invalidBy?: string | undefined;
  className?: string | undefined;
  children: (a11y: {
    id: string;
    'aria-invalid': true | undefined;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}) {
  const id = useId();
  const { label, error, hint, invalidBy, className, children } = props;
  const describedBy =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : '', invalidBy ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block font-medium">
        {label}
      </label>
      {children({ id, 'aria-invalid': error || invalidBy ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export function FormField({ label, error, hint, invalidBy, className, ...input }: FieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} invalidBy={invalidBy} className={className}>
      {(a11y) => <input className="input" {...input} {...a11y} />}
    </FieldShell>
  );
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string;
}

/** A native select: the platform's own picker on phones, and accessible everywhere. */
export function SelectField({ label, error, hint, className, children, ...select }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {(a11y) => (
        <select className="input" {...select} {...a11y}>
          {children}
        </select>
      )}
    </FieldShell>
  );
}

interface TextareaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: string;
  invalidBy?: string | undefined;
}

export function TextareaField({ label, error, hint, invalidBy, className, rows = 3, ...textarea }: TextareaFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint} invalidBy={invalidBy} className={className}>
      {(a11y) => <textarea className="input" rows={rows} {...textarea} {...a11y} />}
    </FieldShell>
  );
}

/** A password input with the spec's show/hide toggle. */
export function PasswordField({ label, error, hint, className, ...input }: FieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {(a11y) => (
        <div className="relative">
          <input type={visible ? 'text' : 'password'} className="input pr-12" {...input} {...a11y} />
          <button
            type="button"
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
            aria-label={visible ? 'Hide password' : 'Show password'}
            aria-pressed={visible}
            aria-controls={a11y.id}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOff aria-hidden size={20} /> : <Eye aria-hidden size={20} />}
          </button>
        </div>
      )}
    </FieldShell>
  );
}
