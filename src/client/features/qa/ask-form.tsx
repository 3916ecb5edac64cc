import { useId, useState, type FormEvent } from 'react';
import { formatCount } from '../../../common/locale.ts';
import { qaLimits, qaMessages } from '../../../common/qa.ts';
import { FormField, TextareaField } from '../../components/form-field.tsx';
import { Notice } from '../../components/notice.tsx';
import { toast } from '../../lib/toast.ts';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import { PhotoPicker } from './photo-picker.tsx';
import { AskChoices, type ModuleChoice } from './ask-choices.tsx';
import type { AskInput } from './qa-data.ts';
import { SimilarQuestions } from './similar-questions.tsx';
import type { QuestionModule } from '../../../common/qa.ts';
import { PostPreview } from './post-preview.tsx';

/** Shown once a field is nearly full, so the limit is never a surprise. */
const nearLimit = (value: string, max: number) =>
  value.length > max * 0.9 ? `${formatCount(value.length)} of ${formatCount(max)} characters` : undefined;

/**
 * The ask form (spec §2, §5). A visitor hears 'Please log in to post a question.'; a title or description that
 * is empty after trimming gets 'Please fill in both the question title and description.', once, just above Post
 * where the eye is, with the empty fields marked (under each field and in a toast as well, it was said three
 * times, and on a phone the toast covered Post). What was typed stays until the question is safely queued on
 * the device.
 */
export function AskForm({
  signedIn,
  settling = false,
  onAsk,
  modules = [],
}: {
  signedIn: boolean;
  /**
   * Who is signed in is still being read from the device (a page opened from the service worker's shell, whose
   * device most likely holds a signed-in user): the signed-in parts hold their place, disabled, so that nothing
   * under them moves when the answer comes.
   */
  settling?: boolean;
  onAsk: (input: AskInput) => Promise<void>;
  /** The catalogue's modules, to tag the question with (issue 39 §3). */
  modules?: readonly ModuleChoice[];
}) {
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [photos, setPhotos] = useState<AskInput['photos']>([]);
  const [module, setModule] = useState<QuestionModule>(null);
  const [anonymous, setAnonymous] = useState(false);
  const [missing, setMissing] = useState<{ title: boolean; text: boolean }>({ title: false, text: false });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const incompleteId = useId();
  const incomplete = missing.title || missing.text;
  // A field filled in is no longer missing; the message goes once neither is.
  const fillIn = (field: 'title' | 'text', value: string) =>
    setMissing((m) => ({ ...m, [field]: m[field] && !value.trim() }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!signedIn) {
      toast.error(qaMessages.askSignedOut);
      return;
    }
    const gaps = { title: !title.trim(), text: !text.trim() };
    setMissing(gaps);
    if (gaps.title || gaps.text) return;
    setBusy(true);
    setError(undefined);
    try {
      await onAsk({ title: title.trim(), text: text.trim(), photos, module, anonymous });
      setTitle('');
      setText('');
      setPhotos([]);
      setAnonymous(false);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <HydratedForm onSubmit={(e) => void submit(e)} noValidate aria-labelledby="ask-title" className="card space-y-4">
      <h2 id="ask-title" className="text-xl font-semibold">
        Ask a question
      </h2>
      <FormField
        label="Title"
        name="title"
        value={title}
        maxLength={qaLimits.titleMax}
        onChange={(e) => {
          setTitle(e.target.value);
          fillIn('title', e.target.value);
        }}
        invalidBy={missing.title ? incompleteId : undefined}
        hint={nearLimit(title, qaLimits.titleMax) ?? 'One line that sums up your question.'}
      />
      <SimilarQuestions title={title} />
      {/* The preview beside the description on a wide screen, under it on a phone. */}
      <div className="grid gap-4 md:grid-cols-2">
        <TextareaField
          label="Description"
          name="text"
          rows={7}
          value={text}
          maxLength={qaLimits.textMax}
          onChange={(e) => {
            setText(e.target.value);
            fillIn('text', e.target.value);
          }}
          invalidBy={missing.text ? incompleteId : undefined}
          error={error}
          hint={
            nearLimit(text, qaLimits.textMax) ??
            'Markdown works: `inline code`, ```java code blocks ```, lists, links, and maths in $…$ or $$…$$.'
          }
        />
        <PostPreview
          text={text}
          label="Preview of your question"
          empty="Your description appears here as it will be posted: maths as formulas, code highlighted."
        />
      </div>
      {(signedIn || settling) && <PhotoPicker photos={photos} onChange={setPhotos} disabled={busy || settling} />}
      {(signedIn || settling) && (
        <AskChoices
          modules={modules}
          module={module}
          onModule={setModule}
          anonymous={anonymous}
          onAnonymous={setAnonymous}
          disabled={busy || settling}
        />
      )}
      {incomplete && (
        <div id={incompleteId}>
          <Notice tone="error">{qaMessages.askIncomplete}</Notice>
        </div>
      )}
      <button type="submit" className="btn-primary" disabled={busy || settling}>
        Post question
      </button>
    </HydratedForm>
  );
}
