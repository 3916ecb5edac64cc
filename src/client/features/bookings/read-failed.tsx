import { Notice } from '../../components/notice.tsx';

/** A read from the server that failed: what could not be read, and a way to read it again. */
export function ReadFailed({ text, onRetry, className }: { text: string; onRetry: () => void; className: string }) {
  return (
    <Notice tone="error" className={className}>
      {text}{' '}
      <button type="button" className="link" onClick={onRetry}>
        Try again
      </button>
    </Notice>
  );
}
