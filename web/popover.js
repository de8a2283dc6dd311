// Reference popovers: every reference the page shows (Q33, X19, spec/claude-code.md §7) becomes
// a button that opens our own summary of it. Views render engine text through
// `withReferences`; the page's own prose is linked once at start (`linkReferences`). One
// popover serves every button and lives at the end of <body>, so the text of the element a
// reference sits in stays as it was.
import { h } from './dom.js';
import { REFERENCE_PATTERN, summaryOf } from './references.js';

/**
 * Where references are left as text: editable or verbatim text, controls and what labels or
 * contains them (a button may not sit inside another control), hidden layers.
 */
const SKIP = 'textarea, input, pre, code, script, style, button, select, option, label, a, summary, [role="option"], [role="listbox"], svg, [aria-hidden="true"], #reference-popover';

/** Text longer than this is user data (a pasted file), never prose or an engine reason. */
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
 * A text as pieces to append: the references we have a summary of become buttons.
 * @param {string} text
 * @returns {(Node | string)[]}
 */
export function withReferences(text) {
  if (text.length > LONGEST_PROSE) return [text];
  /** @type {(Node | string)[]} */
  const pieces = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE_PATTERN)) {
    if (summaryOf(match[0]) === undefined) continue;
    pieces.push(text.slice(last, match.index), referenceButton(match[0]));
    last = match.index + match[0].length;
  }
  return [...pieces, text.slice(last)].filter((piece) => piece !== '');
}

/**
 * Replaces the references in one text node by buttons.
 * @param {Text} node
 */
function linkText(node) {
  const pieces = withReferences(node.data);
  if (pieces.some((piece) => typeof piece !== 'string')) node.replaceWith(...pieces);
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

/** Closes the popover on Escape (the focus goes back to its reference) and on a click elsewhere. */
export function setUpReferencePopovers() {
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && openedBy !== undefined) close(true);
  });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Node && !popover.contains(event.target)) close();
  });
}
