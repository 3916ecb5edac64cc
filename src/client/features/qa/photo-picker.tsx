import { Camera, X } from 'lucide-react';
import { useId, useState, type ChangeEvent } from 'react';
import { photoLimits, qaMessages } from '../../../common/qa.ts';
import type { LocalPhoto } from './qa.sync.ts';

/**
 * "Add photos" on the ask and answer forms: up to three, each resized on the device as it is picked (the resizer is
 * loaded then, not with the page), shown as thumbnails that can be taken off again before posting.
 */
export function PhotoPicker({
  photos,
  onChange,
  disabled,
  compact,
}: {
  photos: LocalPhoto[];
  onChange: (photos: LocalPhoto[]) => void;
  disabled?: boolean;
  /** On every answer form of the board: a short button, its hint and the form's name in its accessible name. */
  compact?: { name: string };
}) {
  const [preparing, setPreparing] = useState(false);
  const [error, setError] = useState<string>();
  const hintId = useId();
  const room = photoLimits.perPost - photos.length;

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    setError(files.length > room ? qaMessages.tooManyPhotos(photoLimits.perPost) : undefined);
    setPreparing(true);
    try {
      const { resizePhoto } = await import('./photo-resize.ts');
      const added: LocalPhoto[] = [];
      for (const file of files.slice(0, room)) added.push({ id: crypto.randomUUID(), ...(await resizePhoto(file)) });
      onChange([...photos, ...added]);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setPreparing(false);
      input.value = '';
    }
  }

  return (
    <div className="space-y-2">
      <label
        className={`btn-secondary w-fit cursor-pointer focus-within:ring-2 focus-within:ring-brand-600 has-[input:disabled]:pointer-events-none has-[input:disabled]:opacity-60 ${
          compact ? 'text-sm' : ''
        }`}
      >
        <Camera aria-hidden size={18} /> {compact ? 'Add photos' : 'Add photos of your working'}
        <input
          type="file"
          accept="image/*"
          multiple
          className="sr-only"
          aria-label={compact?.name}
          aria-describedby={hintId}
          disabled={room === 0 || preparing || disabled}
          onChange={(e) => void pick(e)}
        />
      </label>
      <p id={hintId} className={compact ? 'sr-only' : 'text-sm text-slate-600 dark:text-slate-400'}>
        Up to {photoLimits.perPost}, made smaller on your device before they are sent (about 300 KB each).
      </p>
      {preparing && (
        <p role="status" className="text-sm">
          Preparing photo…
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {photos.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label="Photos to post">
          {photos.map((photo, i) => (
            <li key={photo.id} className="relative">
              <img
                src={photo.preview}
                alt={`Photo ${i + 1} to post`}
                width={96}
                height={96}
                className="size-24 rounded-lg border border-slate-300 object-cover dark:border-slate-600"
              />
              <button
                type="button"
                className="absolute -top-2 -right-2 inline-flex size-11 items-center justify-center rounded-full"
                aria-label={`Remove photo ${i + 1}`}
                onClick={() => onChange(photos.filter((p) => p.id !== photo.id))}
              >
                <span className="inline-flex size-7 items-center justify-center rounded-full bg-slate-800 text-white shadow dark:bg-slate-200 dark:text-slate-900">
                  <X aria-hidden size={16} />
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
