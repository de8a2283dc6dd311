// Large tables are shown a batch at a time: the first rows, then an "N more" button that adds
// the next batch. Rows are built only when they are shown.

/** Rows shown at first and added by each "more" click. */
export const ROW_BATCH = 200;

/**
 * Fills `body` with the first batch of `count` rows and, when there are more, a last row with
 * a button that shows the next batch.
 * @param {HTMLTableSectionElement} body
 * @param {number} count how many rows there are in all
 * @param {(index: number) => HTMLTableRowElement} row builds row `index`
 * @param {number} columns for the button row's span
 * @param {number} [batch]
 */
export function showRows(body, count, row, columns, batch = ROW_BATCH) {
  let shown = 0;
  const more = document.createElement('tr');
  more.className = 'more-rows';
  const cell = document.createElement('td');
  cell.colSpan = columns;
  const button = document.createElement('button');
  button.type = 'button';
  cell.append(button);
  more.append(cell);

  const showNext = () => {
    const until = Math.min(count, shown + batch);
    const rows = [];
    for (let i = shown; i < until; i += 1) rows.push(row(i));
    shown = until;
    more.remove();
    body.append(...rows);
    if (shown < count) {
      button.textContent = `${(count - shown).toLocaleString('en')} more (show ${Math.min(batch, count - shown)})`;
      body.append(more);
    }
  };
  // Moving the button to the end drops its focus: give it back while there is more to show.
  button.addEventListener('click', () => {
    showNext();
    if (shown < count) button.focus();
  });
  body.replaceChildren();
  showNext();
}
