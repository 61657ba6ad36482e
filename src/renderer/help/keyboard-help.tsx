// The help overlay (`?`): every keyboard shortcut, read from the one table the handlers use (the
// lower views' keys from their registry), what
// the pointer does, and the glossary of the figures (what to compare each with).

import { useLayoutEffect, useRef, type JSX } from 'react';
import { GLOSSARY } from '@shared/format/glossary';
import {
  POINTER_GESTURES,
  SHORTCUT_GROUPS,
  chordLabel,
  currentKeyPlatform,
} from '../state/keyboard-shortcuts';
import { PAGE_SHORTCUTS } from '../registry/lower-views';
import { InlineCode } from './inline-code';
import './help.css';

export function KeyboardHelp({ onClose }: { onClose: () => void }): JSX.Element {
  const dialog = useRef<HTMLDialogElement>(null);
  const platform = currentKeyPlatform();

  useLayoutEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  return (
    <dialog
      ref={dialog}
      className="help-dialog"
      data-testid="keyboard-help"
      aria-labelledby="help-title"
      // Esc (the dialog's cancel) and a click on the backdrop close it.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === '?') {
          event.preventDefault();
          onClose();
        }
      }}
    >
      <div className="help-content">
        <header className="help-header">
          <h2 id="help-title">Keyboard and mouse</h2>
          <button
            type="button"
            className="button button-compact"
            data-testid="keyboard-help-close"
            onClick={onClose}
            autoFocus
          >
            Close
          </button>
        </header>
        <p className="help-intro">
          The keys work wherever the focus is, except while typing in a field. ← and → always step
          the selected moment; the timeline zooms and pans with the keys below and the wheel.
        </p>
        <div className="help-columns">
          {SHORTCUT_GROUPS.map((group) => (
            <section key={group} className="help-group">
              <h3>{group}</h3>
              <table className="help-keys">
                <tbody>
                  {PAGE_SHORTCUTS.filter((entry) => entry.group === group).map((entry) => (
                    <tr key={entry.command} data-testid="shortcut" data-command={entry.command}>
                      <th scope="row">
                        {entry.chords.map((chord, index) => (
                          <kbd key={index} className="shortcut">
                            {chordLabel(chord, platform)}
                          </kbd>
                        ))}
                      </th>
                      <td>{entry.description}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ))}
          <section className="help-group">
            <h3>Mouse</h3>
            <table className="help-keys">
              <tbody>
                {POINTER_GESTURES.map((entry) => (
                  <tr key={entry.gesture}>
                    <th scope="row">{entry.gesture}</th>
                    <td>{entry.does}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
        <section className="help-glossary" aria-labelledby="glossary-title">
          <h2 id="glossary-title">Glossary</h2>
          <dl>
            {GLOSSARY.map((entry) => (
              <div key={entry.term} className="glossary-entry" data-testid="glossary-entry">
                <dt>{entry.term}</dt>
                <dd>
                  <InlineCode text={entry.meaning} />
                  {entry.compareWith !== undefined && (
                    <span className="glossary-compare">
                      {' '}
                      <strong>Compare:</strong> <InlineCode text={entry.compareWith} />
                    </span>
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      </div>
    </dialog>
  );
}
