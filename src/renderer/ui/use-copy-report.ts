// "Copy report" of a bug: puts the report on the clipboard, or where the page may not write it,
// opens the report's text box with the text selected to copy by hand. Shared by the notice of a
// file allocscope failed to open (bug-notice.tsx) and a view that failed (ui/view-boundary.tsx).

import { useEffect, useRef, useState, type RefObject } from 'react';
import { copyToClipboard } from '../api/clipboard';

export type CopyState = 'idle' | 'copied' | 'refused';

export interface CopyReport {
  copyState: CopyState;
  /** The report's text box is open. */
  reportShown: boolean;
  setReportShown: (shown: boolean) => void;
  reportBox: RefObject<HTMLTextAreaElement | null>;
  copy: () => Promise<void>;
}

export function useCopyReport(report: string): CopyReport {
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const [reportShown, setReportShown] = useState(false);
  /** Bumped to select the report's text once its box is open. */
  const [selectRequests, setSelectRequests] = useState(0);
  const reportBox = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (selectRequests === 0) return;
    reportBox.current?.focus();
    reportBox.current?.select();
  }, [selectRequests]);

  async function copy(): Promise<void> {
    if (await copyToClipboard(report)) {
      setCopyState('copied');
      return;
    }
    setCopyState('refused');
    setReportShown(true);
    setSelectRequests((count) => count + 1);
  }

  return { copyState, reportShown, setReportShown, reportBox, copy };
}
