import { otherModule } from '../../../common/qa.ts';
import type { ModuleChoice } from './ask-choices.tsx';

/** The board's filter by module (issue 39 §3): every module of the catalogue, "Other", or all. */
export function ModuleFilter({
  modules,
  value,
  disabled,
  onChange,
}: {
  modules: readonly ModuleChoice[];
  value: string | undefined;
  disabled: boolean;
  onChange: (slug: string | undefined) => void;
}) {
  // A module the list does not hold yet (the catalogue still loading) stays chosen, by its slug.
  const known = value === undefined || value === otherModule || modules.some((m) => m.slug === value);
  return (
    <div className="mt-3">
      <label htmlFor="qa-module" className="block text-sm font-medium">
        Filter by module
      </label>
      <select
        id="qa-module"
        className="input mt-1"
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value || undefined)}
      >
        <option value="">All modules</option>
        {modules.map((m) => (
          <option key={m.slug} value={m.slug}>
            {m.name}
          </option>
        ))}
        {!known && <option value={value}>{value}</option>}
        <option value={otherModule}>Other</option>
      </select>
    </div>
  );
}
