// A tiny element builder and the few DOM helpers every view shares: the playground has no
// framework.

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Creates an element with attributes and children (strings become text nodes).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attributes]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * An SVG element with attributes and children (strings become text nodes).
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attributes]
 * @param {...(Node | string)} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/**
 * The element with this id, of the expected class; a missing one is a bug in the page.
 * @template {Element} T
 * @param {string} id
 * @param {new (...args: any[]) => T} type
 * @returns {T}
 */
export function byId(id, type) {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing or not a ${type.name}`);
  return element;
}

/**
 * The message of anything thrown.
 * @param {unknown} error
 */
export function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Shows a panel's complaint, or hides the element when there is none.
 * @param {HTMLElement} element the panel's error line
 * @param {string} message '' for none
 */
export function showError(element, message) {
  element.textContent = message;
  element.hidden = message === '';
}

/**
 * A table's header row.
 * @param {string[]} headers
 */
export function tableHead(headers) {
  return h('thead', {}, h('tr', {}, ...headers.map((title) => h('th', {}, title))));
}

/**
 * The one row of a table with no rows, saying so across every column.
 * @param {number} columns
 * @param {string} empty what to say
 */
export function emptyRow(columns, empty) {
  return h('tr', {}, h('td', { colspan: String(columns), class: 'none' }, empty));
}

/**
 * A table's content: the header row, then a row per list of cells (a string or a node each),
 * or one row saying `empty` when there are none.
 * @param {string[]} headers
 * @param {(string | Node)[][]} rows
 * @param {string} empty
 * @returns {HTMLElement[]}
 */
export function tableParts(headers, rows, empty) {
  const body = rows.length === 0
    ? [emptyRow(headers.length, empty)]
    : rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))));
  return [tableHead(headers), h('tbody', {}, ...body)];
}
