import { CloseIcon } from './icons';

/** The × that closes a notice; `label` says which, for screen readers and tests. */
export function DismissButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      className="notice-dismiss"
      data-testid="dismiss-notice"
      aria-label={label}
      title="Dismiss"
      onClick={onClick}
    >
      <CloseIcon />
    </button>
  );
}
