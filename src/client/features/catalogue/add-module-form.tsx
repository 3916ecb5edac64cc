import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { catalogueMessages, createModuleInputSchema } from '../../../common/catalogue.ts';
import { SelectField } from '../../components/form-field.tsx';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import { Notice } from '../../components/notice.tsx';
import { isOffline, NetworkError } from '../../lib/api.ts';
import { useFormSubmit } from '../../lib/forms.ts';
import { toast } from '../../lib/toast.ts';
import { catalogueAdminApi } from './catalogue-admin-api.ts';
import { CategoryOptions, ModuleNameField, ModuleTextFields, PriceField } from './module-fields.tsx';
import {
  emptyForm,
  fieldMessage,
  parseTopics,
  setter,
  typedCents,
  useMessagesForSentValues,
  writeErrors,
} from './module-form.ts';

/** Spec §2 Manage Modules: add a module (name, price, category; description and topics optional). */
export function AddModuleForm() {
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
      <ModuleNameField value={values.name} onChange={set('name')} error={fieldError('name')} />
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
      <ModuleTextFields values={values} set={set} fieldError={fieldError} optional />
      <button type="submit" className="btn-primary" disabled={busy}>
        <Plus aria-hidden size={18} />
        {busy ? 'Adding…' : 'Add Module'}
      </button>
    </HydratedForm>
  );
}
