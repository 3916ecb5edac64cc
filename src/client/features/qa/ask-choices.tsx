import { useId } from 'react';
import { qaMessages, type QuestionModule } from '../../../common/qa.ts';

/** A module as the board's choices name it (the catalogue's slug and name). */
export type ModuleChoice = NonNullable<QuestionModule>;

const otherValue = '';

/** The module a question is about, from the catalogue (or "Other"), and whether to post anonymously (issue 39 §3). */
export function AskChoices({
  modules,
  module,
  onModule,
  anonymous,
  onAnonymous,
  disabled,
}: {
  modules: readonly ModuleChoice[];
  module: QuestionModule;
  onModule: (module: QuestionModule) => void;
  anonymous: boolean;
  onAnonymous: (anonymous: boolean) => void;
  disabled?: boolean;
}) {
  const selectId = useId();
  const hintId = useId();
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor={selectId} className="block text-sm font-medium">
          Module
        </label>
        <select
          id={selectId}
          name="module"
          className="input mt-1"
          value={module?.slug ?? otherValue}
          disabled={disabled}
          onChange={(e) => onModule(modules.find((m) => m.slug === e.target.value) ?? null)}
        >
          <option value={otherValue}>Other</option>
          {modules.map((m) => (
            <option key={m.slug} value={m.slug}>
              {m.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label className="inline-flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="anonymous"
            className="size-5"
            checked={anonymous}
            disabled={disabled}
            aria-describedby={hintId}
            onChange={(e) => onAnonymous(e.target.checked)}
          />
          Post anonymously to classmates
        </label>
        <p id={hintId} className="text-sm text-slate-600 dark:text-slate-400">
          {qaMessages.anonymousHint}
        </p>
      </div>
    </div>
  );
}
