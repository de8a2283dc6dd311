// The JavaScript side of access.rs: the built-ins the engine relies on, captured when the
// module loads, so code that replaces `Object.keys` or a typed array's `length` getter later
// cannot change what the engine sees.
const TypedArray = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArray, Symbol.toStringTag).get;
const typedArrayByteLength = Object.getOwnPropertyDescriptor(TypedArray, 'byteLength').get;
const typedArraySet = TypedArray.set;
const objectKeys = Object.keys;
const arrayIsArray = Array.isArray;
const jsonStringify = JSON.stringify;
const stringNormalize = String.prototype.normalize;
const stringIsWellFormed = String.prototype.isWellFormed;
const ErrorClass = Error;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const encoder = new TextEncoder();
export function ownKeys(object) { return objectKeys(object); }
export function field(object, key) { return object[key]; }
export function isArray(value) { return arrayIsArray(value); }
export function jsonText(value) { const text = jsonStringify(value); return text === undefined ? null : text; }
export function uint8ByteLength(value) {
  return typedArrayTag.call(value) === 'Uint8Array' ? typedArrayByteLength.call(value) : -1;
}
export function copyUint8(value, memory, at, length) {
  typedArraySet.call(new Uint8Array(memory.buffer, at, length), value);
}
export function stringLength(value) { return typeof value === 'string' ? value.length : -1; }
export function loneSurrogateAt(value) {
  if (stringIsWellFormed !== undefined && stringIsWellFormed.call(value)) return -1;
  const found = loneSurrogate.exec(value);
  return found === null ? -1 : found.index;
}
export function toNfc(text) { return stringNormalize.call(text, 'NFC'); }
export function encodeInto(value, memory, at, capacity) {
  return encoder.encodeInto(value, new Uint8Array(memory.buffer, at, capacity)).written;
}
export function thrownMessage(thrown) {
  try {
    if (thrown instanceof ErrorClass && typeof thrown.message === 'string') return thrown.message;
  } catch {}
  try {
    if (typeof thrown === 'string') return thrown;
    return String(thrown);
  } catch {}
  return 'a value that cannot be shown';
}
