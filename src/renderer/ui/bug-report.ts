import { formatExactBytes } from '@shared/format/units';

// The text "Copy report" puts on the clipboard when allocscope hits a bug: everything a
// maintainer needs to reproduce it without asking back (which build, which file, the error and
// its stack), and nothing from the file's contents beyond its name and size.

export interface BugReportFacts {
  /** package.json's version; null when the build did not say. */
  readonly appVersion: string | null;
  readonly host: 'electron' | 'web';
  /** The browser or Electron's user agent (its Chrome and Electron versions); null if unknown. */
  readonly userAgent: string | null;
  readonly fileName: string;
  /** The file's size in bytes; null when the decode did not know it. */
  readonly fileBytes: number | null;
  /** The one line the notice shows. */
  readonly message: string;
  /** The error and its stack, from the decoder. */
  readonly report: string;
}

export function composeBugReport(facts: BugReportFacts): string {
  const version = facts.appVersion === null ? 'version unknown' : facts.appVersion;
  const size =
    facts.fileBytes === null ? 'size unknown' : `${formatExactBytes(facts.fileBytes)} bytes`;
  const lines = [
    `allocscope ${version} (${facts.host === 'electron' ? 'desktop app' : 'web page'})`,
    ...(facts.userAgent === null ? [] : [`User agent: ${facts.userAgent}`]),
    `File: ${facts.fileName} (${size})`,
    `Message: ${facts.message}`,
    '',
    facts.report.trimEnd(),
  ];
  return `${lines.join('\n')}\n`;
}
