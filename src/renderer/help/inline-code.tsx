// Text with `code` spans (the glossary's Markdown) as React nodes: backticks become <code>.

import type { JSX, ReactNode } from 'react';

/** Splits at backticks: odd parts were inside them. */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  return text
    .split('`')
    .map((part, index) => ({ text: part, code: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}

export function InlineCode({ text }: { text: string }): JSX.Element {
  const nodes: ReactNode[] = codeSpans(text).map((part, index) =>
    part.code ? <code key={index}>{part.text}</code> : part.text,
  );
  return <>{nodes}</>;
}
