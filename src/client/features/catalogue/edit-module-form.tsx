import { useEffect, useRef, useState } from 'react';
import { catalogueMessages, randToCents, updateModuleInputSchema, type Module } from '../../../common/catalogue.ts';
import { SelectField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { SaveCancel } from '../../components/save-cancel.tsx';
import { isOffline, NetworkError } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';
import { catalogueAdminApi } from './catalogue-admin-api.ts';
import { CategoryOptions, ModuleNameField, ModuleTextFields, PriceField } from './module-fields.tsx';
import {
  fieldMessage,
  parseTopics,
  setter,
  toFormValues,
  typedCents,
  useMessagesForSentValues,
  writeErrors,
} from './module-form.ts';

/** Spec §2 Manage Modules: edit every field of a module in its row; only what changed is sent. */
export function EditModuleForm({ module, onDone }: { module: Module; onDone: () => void }) {
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
      <ModuleNameField value={values.name} onChange={set('name')} error={fieldError('name')} />
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
      <ModuleTextFields values={values} set={set} fieldError={fieldError} descriptionRows={4} />
      <SaveCancel busy={busy} saveLabel="Save changes" onCancel={onDone} />
    </form>
  );
}
