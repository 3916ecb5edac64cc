/** The end of an inline edit form: save (busy while sending) and cancel, side by side. */
export function SaveCancel({ busy, saveLabel, onCancel }: { busy: boolean; saveLabel: string; onCancel: () => void }) {
  return (
    <div className="flex flex-wrap gap-3">
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? 'Saving…' : saveLabel}
      </button>
      <button type="button" className="btn-secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
