import { useState, type FormEvent } from 'react';
import { qaLimits } from '../../../common/qa.ts';
import { TextareaField } from '../../components/form-field.tsx';
import { HydratedForm } from '../../components/hydrated-form.tsx';
import { formatCount } from '../../../common/locale.ts';
import { PhotoPicker } from './photo-picker.tsx';
import type { LocalPhoto } from './qa.sync.ts';
import { PostPreview } from './post-preview.tsx';

/**
 * The per-question answer form (spec §2). An empty answer is silently ignored (spec §5); the text is cleared
 * only once the answer is safely queued on the device, so a refusal (signed out, no storage) keeps it. The server
 * renders it with the board (decision 0024): it takes input once hydrated.
 */
export function AnswerForm({
  questionTitle,
  onAnswer,
  signedIn = true,
}: {
  questionTitle: string;
  /** A visitor is asked to log in when posting: no photos to prepare for nothing. */
  signedIn?: boolean;
  onAnswer: (text: string, photos: LocalPhoto[]) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [photos, setPhotos] = useState<LocalPhoto[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(undefined);
    try {
      await onAnswer(text, photos);
      setText('');
      setPhotos([]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <HydratedForm onSubmit={(e) => void submit(e)} noValidate className="mt-4 space-y-2">
      <TextareaField
        label="Your answer"
        aria-label={`Your answer to "${questionTitle}"`}
        rows={3}
        value={text}
        maxLength={qaLimits.textMax}
        onChange={(e) => setText(e.target.value)}
        error={error}
        hint={
          text.length > qaLimits.textMax * 0.9
            ? `${formatCount(text.length)} of ${formatCount(qaLimits.textMax)} characters`
            : undefined
        }
      />
      {/* Under the field, once there is something to show: twenty forms on the board keep no empty boxes. */}
      {text.trim() && <PostPreview text={text} label={`Preview of the answer to "${questionTitle}"`} />}
      {signedIn && (
        <PhotoPicker
          photos={photos}
          onChange={setPhotos}
          disabled={busy}
          compact={{ name: `Add photos to the answer to "${questionTitle}"` }}
        />
      )}
      <button type="submit" className="btn-secondary" disabled={busy}>
        Post answer
      </button>
    </HydratedForm>
  );
}
