import { moduleLimits } from '../../../common/catalogue.ts';
import { categories } from '../../../common/roles.ts';
import { FormField, TextareaField } from '../../components/form-field.tsx';
import type { ModuleFormValues } from './module-form.ts';

type Change = (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;

const topicsHint = 'One per line, or separated by commas.';

export function CategoryOptions() {
  return categories.map((c) => (
    <option key={c} value={c}>
      {c}
    </option>
  ));
}

/** The module's name, on the add and the edit form. */
export function ModuleNameField(props: {
  value: string;
  onChange: (e: React.ChangeEvent<HTMLInputElement>) => void;
  error: string | undefined;
}) {
  return <FormField label="Name" name="name" maxLength={moduleLimits.nameMax} {...props} />;
}

/**
 * The price, typed in rand as people write it ('90' or '90.50'); the forms turn it into cents. On the empty add
 * form an example is a hint under the field (until a message replaces it), not a placeholder: a grey "90" in the
 * box read as a price already filled in.
 */
export function PriceField({
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

/**
 * The module's words: its description and topics, the same on the add form (where they are marked optional)
 * and the edit form (a taller description, as the text is already there).
 */
export function ModuleTextFields({
  values,
  set,
  fieldError,
  optional = false,
  descriptionRows,
}: {
  values: Pick<ModuleFormValues, 'description' | 'topics'>;
  set: (key: 'description' | 'topics') => Change;
  fieldError: (field: string) => string | undefined;
  optional?: boolean;
  descriptionRows?: number;
}) {
  const marked = (label: string) => (optional ? `${label} (optional)` : label);
  return (
    <>
      <TextareaField
        label={marked('Description')}
        name="description"
        rows={descriptionRows}
        maxLength={moduleLimits.descriptionMax}
        value={values.description}
        onChange={set('description')}
        error={fieldError('description')}
      />
      <TextareaField
        label={marked('Topics')}
        name="topics"
        hint={topicsHint}
        value={values.topics}
        onChange={set('topics')}
        error={fieldError('topics')}
      />
    </>
  );
}
