// A long run's controls: the line that says how far it is, its Cancel button, and the button
// that started it (disabled while it runs, so one run goes at a time).

/**
 * The `busy(text)` call of a run's controls: a text shows the status and Cancel and disables
 * the run button; '' puts them back.
 * @param {{ status: HTMLElement, cancelButton: HTMLButtonElement, runButton: HTMLButtonElement }} controls
 * @returns {(text: string) => void}
 */
export function busyIndicator({ status, cancelButton, runButton }) {
  return (text) => {
    status.textContent = text;
    status.hidden = text === '';
    cancelButton.hidden = text === '';
    runButton.disabled = text !== '';
  };
}
