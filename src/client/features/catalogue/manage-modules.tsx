import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from '../../lib/toast.ts';
import {
  catalogueMessages,
  createModuleInputSchema,
  formatRand,
  moduleLimits,
  randToCents,
  updateModuleInputSchema,
  type Module,
} from '../../../common/catalogue.ts';
import { categories } from '../../../common/roles.ts';
import { useConfirm } from '../../components/confirm-dialog.tsx';
import { FormField, SelectField, TextareaField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { SaveCancel } from '../../components/save-cancel.tsx';
import { ApiError, isOffline, NetworkError } from '../../lib/api.ts';
import { errorText } from '../../lib/error-text.ts';
import { toFormErrors, useFormSubmit, type FormErrors } from '../../lib/forms.ts';
import { catalogueAdminApi } from './catalogue-admin-api.ts';
import { useModules } from './use-modules.ts';
import { HydratedForm } from '../../components/hydrated-form.tsx';

/** "Limits, Derivatives\nIntegrals" → three topics: one per line or comma-separated, blanks dropped. */
const parseTopics = (text: string) =>
  text
    .split(/[\n,]/)
    .map((t) => t.trim())
    .filter(Boolean);

const topicsHint = 'One per line, or separated by commas.';
const priceFormatError = 'Enter the price in rand, for example 90 or 90.50.';

/**
 * The typed price as the schema should see it: blank is `blank` (missing), and text that is not a price is
 * NaN, which the schema refuses like any bad price (and `fieldMessage` words as `priceFormatError`), so
 * the other fields are still checked.
 */
const typedCents = <B,>(text: string, blank: B) => (text.trim() === '' ? blank : (randToCents(text) ?? Number.NaN));

/** 9050 → "90.50", 9000 → "90": a price as the admin types it. */
const centsToRandText = (cents: number) => (cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/** The form's price field and the schema's, so a message lands next to the field it is about. */
const valueKey = (field: string) => (field === 'priceCents' ? 'price' : field);

type ModuleFormValues = { name: string; price: string; category: string; description: string; topics: string };

/**
 * A field's message is about the value that was sent: once the admin changes that field it no longer
 * applies (a name refused as taken says nothing about the next name), so it goes, and the other fields'
 * messages stay.
 */
function useMessagesForSentValues(values: ModuleFormValues) {
  const [sent, setSent] = useState<ModuleFormValues>();
  return {
    markSent: () => setSent(values),
    stillApplies: (field: string) => {
      const key = valueKey(field) as keyof ModuleFormValues;
      return sent !== undefined && sent[key] === values[key];
    },
  };
}

/** What a failed catalogue write shows: offline and bad input in the form, anything else as the spec's text. */
function writeErrors(fallback: string) {
  return (error: unknown): FormErrors => {
    if (error instanceof ApiError && error.status === 409)
      return { fields: { name: error.message || catalogueMessages.duplicateName } };
    if (error instanceof ApiError && error.status === 400) return toFormErrors(error, fallback);
    const form = errorText(error, fallback, { offline: catalogueMessages.offline });
    if (!(error instanceof NetworkError)) toast.error(form);
    return { form, fields: {} };
  };
}

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
      <div className="mt-4 grid gap-6 lg:grid-cols-[22rem_1fr] lg:items-start">
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

const emptyForm: ModuleFormValues = { name: '', price: '', category: '', description: '', topics: '' };

/** What a field shows: the spec's one message for a missing field is 'Required.' next to each (spec §5). */
function fieldMessage(
  errors: FormErrors,
  field: string,
  values: ModuleFormValues,
  stillApplies: (field: string) => boolean,
): string | undefined {
  const message = stillApplies(field) ? errors.fields[field] : undefined;
  // A price that is there but is not a price is its own mistake, not a missing field.
  if (message && field === 'priceCents' && Number.isNaN(typedCents(values.price, 0))) return priceFormatError;
  return message === catalogueMessages.fillAllFields ? 'Required.' : message;
}

const setter =
  (setValues: React.Dispatch<React.SetStateAction<ModuleFormValues>>) =>
  (key: keyof ModuleFormValues) =>
  (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

function AddModuleForm() {
  const headingId = useId();
  const [values, setValues] = useState(emptyForm);
  const { markSent, stillApplies } = useMessagesForSentValues(values);
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: createModuleInputSchema,
    values: {
      name: values.name,
      priceCents: typedCents(values.price, undefined),
      category: values.category,
      description: values.description,
      topics: parseTopics(values.topics),
    },
    toErrors: writeErrors(catalogueMessages.addFailed),
    send: async (data) => {
      if (isOffline()) throw new NetworkError();
      await catalogueAdminApi.create(data);
      setValues(emptyForm);
      toast.success(catalogueMessages.added);
    },
  });

  const fieldError = (field: string) => fieldMessage(errors, field, values, stillApplies);
  // Spec §5: one message when a required field is missing; the fields themselves are marked.
  const missing = Object.keys(errors.fields).some((field) => fieldError(field) === 'Required.');
  const set = setter(setValues);

  return (
    <HydratedForm
      noValidate
      className="card flex flex-col gap-4"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        markSent();
        void onSubmit(event);
      }}
    >
      <h3 id={headingId} className="text-lg font-semibold">
        Add a module
      </h3>
      {(missing || errors.form) && (
        <Notice tone="error">{missing ? catalogueMessages.fillAllFields : errors.form}</Notice>
      )}
      <FormField
        label="Name"
        name="name"
        maxLength={moduleLimits.nameMax}
        value={values.name}
        onChange={set('name')}
        error={fieldError('name')}
      />
      <PriceField value={values.price} onChange={set('price')} error={fieldError('priceCents')} example />
      <SelectField
        label="Category"
        name="category"
        value={values.category}
        onChange={set('category')}
        error={fieldError('category')}
      >
        <option value="">Select a category</option>
        <CategoryOptions />
      </SelectField>
      <TextareaField
        label="Description (optional)"
        name="description"
        maxLength={moduleLimits.descriptionMax}
        value={values.description}
        onChange={set('description')}
        error={fieldError('description')}
      />
      <TextareaField
        label="Topics (optional)"
        name="topics"
        hint={topicsHint}
        value={values.topics}
        onChange={set('topics')}
        error={fieldError('topics')}
      />
      <button type="submit" className="btn-primary" disabled={busy}>
        <Plus aria-hidden size={18} />
        {busy ? 'Adding…' : 'Add Module'}
      </button>
    </HydratedForm>
  );
}

function CategoryOptions() {
  return categories.map((c) => (
    <option key={c} value={c}>
      {c}
    </option>
  ));
}

function ModuleRow({ module }: { module: Module }) {
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

const toFormValues = (module: Module): ModuleFormValues => ({
  name: module.name,
  price: centsToRandText(module.priceCents),
  category: module.category,
  description: module.description,
  topics: module.topics.join('\n'),
});

function EditModuleForm({ module, onDone }: { module: Module; onDone: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  // What the form opened with: only the fields the admin changed are sent, so a change someone else made
  // meanwhile (another admin's +R10, say) is not written back over.
  const [initial] = useState(() => toFormValues(module));
  const [values, setValues] = useState(initial);
  const { markSent, stillApplies } = useMessagesForSentValues(values);
  // Cleared, the price is null: the schema calls that missing rather than "leave it as it is".
  const priceCents = typedCents(values.price, null);
  const topics = parseTopics(values.topics);
  const changes = {
    ...(values.name !== initial.name ? { name: values.name } : {}),
    ...(priceCents !== randToCents(initial.price) ? { priceCents } : {}),
    ...(values.category !== initial.category ? { category: values.category } : {}),
    ...(values.description !== initial.description ? { description: values.description } : {}),
    ...(topics.join('\n') !== parseTopics(initial.topics).join('\n') ? { topics } : {}),
  };
  const { errors, busy, onSubmit } = useFormSubmit({
    schema: updateModuleInputSchema,
    values: changes,
    toErrors: writeErrors(catalogueMessages.updateFailed),
    send: async (data) => {
      if (isOffline()) throw new NetworkError();
      await catalogueAdminApi.update(module.id, data);
      toast.success(catalogueMessages.updated);
      onDone();
    },
  });

  useEffect(() => {
    form.current?.querySelector('input')?.focus();
  }, []);

  const fieldError = (field: string) => fieldMessage(errors, field, values, stillApplies);
  const set = setter(setValues);

  return (
    <form
      ref={form}
      noValidate
      className="mt-4 flex flex-col gap-4"
      aria-label={`Edit ${module.name}`}
      onSubmit={(event) => {
        markSent();
        // Saving what is already there needs no request (and is not an error).
        if (Object.keys(changes).length === 0) {
          event.preventDefault();
          onDone();
          return;
        }
        void onSubmit(event);
      }}
    >
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      <FormField
        label="Name"
        name="name"
        maxLength={moduleLimits.nameMax}
        value={values.name}
        onChange={set('name')}
        error={fieldError('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <PriceField value={values.price} onChange={set('price')} error={fieldError('priceCents')} />
        <SelectField
          label="Category"
          name="category"
          value={values.category}
          onChange={set('category')}
          error={fieldError('category')}
        >
          <CategoryOptions />
        </SelectField>
      </div>
      <TextareaField
        label="Description"
        name="description"
        rows={4}
        maxLength={moduleLimits.descriptionMax}
        value={values.description}
        onChange={set('description')}
        error={fieldError('description')}
      />
      <TextareaField
        label="Topics"
        name="topics"
        hint={topicsHint}
        value={values.topics}
        onChange={set('topics')}
        error={fieldError('topics')}
      />
      <SaveCancel busy={busy} saveLabel="Save changes" onCancel={onDone} />
    </form>
  );
}

/**
 * The price, typed in rand as people write it ('90' or '90.50'); the forms turn it into cents. On the empty add
 * form an example is a hint under the field (until a message replaces it), not a placeholder: a grey "90" in the
 * box read as a price already filled in.
 */
function PriceField({
  example = false,
  ...props
}: {
  value: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
  error: string | undefined;
  example?: boolean;
}) {
  return (
    <FormField
      label="Price per hour (rand)"
      name="price"
      inputMode="decimal"
      autoComplete="off"
      hint={example && !props.error ? 'For example 90 or 90.50.' : undefined}
      {...props}
    />
  );
}
