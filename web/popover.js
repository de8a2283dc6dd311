// Reference popovers: every reference the page shows (Q33, X19, spec/claude-code.md §7) becomes
// a button that opens our own summary of it. One popover serves every button and lives at the
// end of <body>, so the text of the element a reference sits in stays as it was.
import { h } from './dom.js';
import { REFERENCE_PATTERN, summaryOf } from './references.js';

/** Where references are left as text: editable or verbatim text, controls, hidden layers. */
const SKIP = 'textarea, input, pre, code, script, style, button, select, option, svg, [aria-hidden="true"], #reference-popover';

/** Text longer than this is user data (a pasted file), never the page's own prose. */
const LONGEST_PROSE = 10_000;

const popover = h('div', { id: 'reference-popover', class: 'reference-popover', role: 'dialog', 'aria-labelledby': 'reference-popover-title', hidden: '' },
  h('p', { id: 'reference-popover-title', class: 'reference-popover-title' }),
  h('p', { id: 'reference-popover-text' }));

/** @type {HTMLButtonElement | undefined} */
let openedBy;

/**
 * Shows the summary of `button`'s reference below it.
 * @param {HTMLButtonElement} button
 */
function open(button) {
  close();
  const reference = button.dataset.ref ?? '';
  const [title, text] = popover.children;
  title.textContent = reference;
  text.textContent = summaryOf(reference) ?? '';
  if (!popover.isConnected) document.body.append(popover);
  popover.hidden = false;
  const box = button.getBoundingClientRect();
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  popover.style.width = `${width}px`;
  popover.style.left = `${Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8)) + window.scrollX}px`;
  popover.style.top = `${box.bottom + 4 + window.scrollY}px`;
  button.setAttribute('aria-expanded', 'true');
  openedBy = button;
}

/**
 * Hides the popover; `refocus` puts the focus back on the button that opened it.
 * @param {boolean} [refocus]
 */
function close(refocus = false) {
  if (openedBy === undefined) return;
  popover.hidden = true;
  openedBy.setAttribute('aria-expanded', 'false');
  if (refocus) openedBy.focus();
  openedBy = undefined;
}

/**
 * A reference as a button that toggles its popover.
 * @param {string} reference
 */
function referenceButton(reference) {
  const button = h('button', { type: 'button', class: 'ref', 'data-ref': reference, 'aria-expanded': 'false',
    'aria-controls': 'reference-popover' }, reference);
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    if (openedBy === button) close();
    else open(button);
  });
  return button;
}

/**
 * Replaces the references with a summary in one text node by buttons.
 * @param {Text} node
 */
function linkText(node) {
  const text = node.data;
  if (text.length > LONGEST_PROSE) return;
  /** @type {(Node | string)[]} */
  const pieces = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE_PATTERN)) {
    if (summaryOf(match[0]) === undefined) continue;
    pieces.push(text.slice(last, match.index), referenceButton(match[0]));
    last = match.index + match[0].length;
  }
  if (pieces.length === 0) return;
  node.replaceWith(...pieces, text.slice(last));
}

/**
 * Turns every reference under `root` into a popover button, but inside `SKIP`.
 * @param {Node} root
 */
export function linkReferences(root) {
  const start = root instanceof Element ? root : root.parentElement;
  if (start === null || start.closest(SKIP) !== null) return;
  if (root instanceof Text) {
    linkText(root);
    return;
  }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => node instanceof Element
      ? (node.matches(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP)
      : NodeFilter.FILTER_ACCEPT,
  });
  /** @type {Text[]} */
  const texts = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node instanceof Text && REFERENCE_PATTERN.test(node.data)) texts.push(node);
    REFERENCE_PATTERN.lastIndex = 0;
  }
  texts.forEach(linkText);
}

/**
 * Links the references under `root` now and in everything the views render there later;
 * wires Escape and clicks outside to close the popover.
 * @param {HTMLElement} root
 */
export function watchReferences(root) {
  linkReferences(root);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target instanceof Element && record.target.closest(SKIP) !== null) continue;
      record.addedNodes.forEach(linkReferences);
    }
  }).observe(root, { childList: true, subtree: true });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && openedBy !== undefined) close(true);
  });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Node && !popover.contains(event.target)) close();
  });
}
