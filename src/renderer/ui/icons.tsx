// Small inline icons (no icon font or image requests; colour follows the text).

export function CloseIcon() {
  return (
    <svg width="10" height="10" viewBox="0 0 10 10" aria-hidden="true">
      <path d="M1.5 1.5l7 7M8.5 1.5l-7 7" stroke="currentColor" strokeWidth="1.4" />
    </svg>
  );
}

export function DropIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none">
      <path d="M8 2v8M4.5 6.5L8 10l3.5-3.5" stroke="currentColor" strokeWidth="1.6" />
      <path d="M2.5 11v2.5h11V11" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
