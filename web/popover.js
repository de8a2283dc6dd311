// Popovers for the words the page shows. Every reference (Q33, X19, spec/claude-code.md §7)
// becomes a button that opens our own summary of it; every glossary term a view prints
// (`already-in-context`, "prompt cache", a `cached` column) becomes one that opens its meanings,
// with the way to its entry in the Glossary tab. Views render engine text through
// `withReferences`, and pass what they have drawn to `linkTerms`; the page's own prose is
// linked once at start. One popover serves every button and lives at the end of <body>, so the
// text of the element a button sits in stays as it was.
import { h } from './dom.js';
import { findTerms, meaningsOf } from './glossary.js';
import { REFERENCE_PATTERN, summaryOf } from './references.js';

/**
 * Where no button may go: editable or verbatim text, controls and what labels or contains them
 * (a button may not sit inside another control), pictures, hidden layers.
 */
const CONTROLS = 'textarea, input, pre, script, style, button, select, option, label, a, summary, [role="option"], [role="listbox"], svg, [aria-hidden="true"], #reference-popover';

/** Where references are left as text: a `code` is a name or a path, never a citation. */
const SKIP = `${CONTROLS}, code`;

/**
 * Where terms are left as text: a term is often printed as `code`, so that stays in; a meter's
 * picture and the glossary's own entries are out.
 */
const TERM_SKIP = `${CONTROLS}, [role="img"], .glossary-list dt`;

/** Text longer than this is user data (a pasted file), never prose or an engine reason. */
const LONGEST_PROSE = 10_000;

const toGlossary = h('button', { type: 'button', id: 'reference-popover-glossary' }, 'Show in the Glossary');
const popover = h('div', { id: 'reference-popover', class: 'reference-popover', role: 'dialog', 'aria-labelledby': 'reference-popover-title', hidden: '' },
  h('p', { id: 'reference-popover-title', class: 'reference-popover-title' }),
  h('div', { id: 'reference-popover-text' }),
  toGlossary);

/** @type {HTMLButtonElement | undefined} */
let openedBy;

/**
 * Shows the summary of `button`'s reference, or the meanings of its term, below it. A term's
 * popover takes the focus, so that its way to the Glossary is one key away; Escape gives it back.
 * @param {HTMLButtonElement} button
 */
function open(button) {
  close();
  const { ref: reference, term } = button.dataset;
  const [title, text] = popover.children;
  title.textContent = reference ?? term ?? '';
  text.replaceChildren(...(term === undefined
    ? [h('p', {}, summaryOf(reference ?? '') ?? '')]
    : meaningsOf(term).map((entry) => h('p', {},
      h('span', { class: 'reference-popover-group' }, `${entry.group}${entry.term === term ? '' : ` — ${entry.term}`}: `), entry.meaning))));
  toGlossary.hidden = term === undefined;
  if (!popover.isConnected) document.body.append(popover);
  popover.hidden = false;
  const box = button.getBoundingClientRect();
  const width = Math.min(360, document.documentElement.clientWidth - 16);
  popover.style.width = `${width}px`;
  popover.style.left = `${Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8)) + window.scrollX}px`;
  popover.style.top = `${box.bottom + 4 + window.scrollY}px`;
  button.setAttribute('aria-expanded', 'true');
  openedBy = button;
  if (term !== undefined) toGlossary.focus();
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
 * A button that toggles the popover.
 * @param {'ref' | 'term'} kind its class, and the `data-` that holds what it opens
 * @param {string} value the reference, or the term as the glossary spells it
 * @param {string} text what the button shows
 */
function popoverButton(kind, value, text) {
  const button = h('button', { type: 'button', class: kind, [`data-${kind}`]: value, 'aria-expanded': 'false',
    'aria-controls': 'reference-popover' }, text);
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    if (openedBy === button) close();
    else open(button);
  });
  return button;
}

/**
 * A reference as a button that toggles its popover.
 * @param {string} reference
 */
const referenceButton = (reference) => popoverButton('ref', reference, reference);

/**
 * A glossary term as a button that opens its meanings, showing the term as printed.
 * @param {string} word the term as the glossary spells it
 * @param {string} [text] as the page prints it, if otherwise ("Prompt cache")
 */
export const termButton = (word, text = word) => popoverButton('term', word, text);

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
 * The text nodes under `root` (itself, if it is one), but inside `skip`.
 * @param {Node} root
 * @param {string} skip
 * @returns {Text[]}
 */
function textsUnder(root, skip) {
  const start = root instanceof Element ? root : root.parentElement;
  if (start === null || start.closest(skip) !== null) return [];
  if (root instanceof Text) return [root];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT, {
    acceptNode: (node) => node instanceof Element
      ? (node.matches(skip) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP)
      : NodeFilter.FILTER_ACCEPT,
  });
  /** @type {Text[]} */
  const texts = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    if (node instanceof Text) texts.push(node);
  }
  return texts;
}

/**
 * Turns every reference under `root` into a popover button, but inside `SKIP`.
 * @param {Node} root
 */
export function linkReferences(root) {
  const texts = textsUnder(root, SKIP).filter((node) => {
    REFERENCE_PATTERN.lastIndex = 0;
    return REFERENCE_PATTERN.test(node.data);
  });
  REFERENCE_PATTERN.lastIndex = 0;
  texts.forEach(linkText);
}

/**
 * Turns the first time each glossary term appears under `root` into a button that opens its
 * meanings, but inside `TERM_SKIP`: once per view reads better than a button on every row.
 * @param {Node} root
 */
export function linkTerms(root) {
  /** @type {Set<string>} */
  const linked = new Set();
  for (const node of textsUnder(root, TERM_SKIP)) {
    if (node.data.length > LONGEST_PROSE) continue;
    /** @type {(Node | string)[]} */
    const pieces = [];
    let last = 0;
    for (const { index, length, word } of findTerms(node.data)) {
      if (linked.has(word)) continue;
      linked.add(word);
      pieces.push(node.data.slice(last, index), termButton(word, node.data.slice(index, index + length)));
      last = index + length;
    }
    if (pieces.length > 0) node.replaceWith(...[...pieces, node.data.slice(last)].filter((piece) => piece !== ''));
  }
}

/**
 * Closes the popover on Escape (the focus goes back to its reference) and on a click elsewhere;
 * a term's way to the Glossary shows that tab with the term's first entry focused.
 */
export function setUpReferencePopovers() {
  toGlossary.addEventListener('click', () => {
    const entry = document.getElementById(meaningsOf(openedBy?.dataset.term ?? '')[0]?.id ?? '');
    close();
    document.getElementById('tab-glossary')?.click();
    entry?.scrollIntoView({ block: 'center' });
    entry?.focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && openedBy !== undefined) close(true);
  });
  document.addEventListener('click', (event) => {
    if (event.target instanceof Node && !popover.contains(event.target)) close();
  });
}
