// Hostile JavaScript values. Each is written as the JS expression that makes it, so a
// failure's reproducer shows exactly the value, and `make` builds a fresh one every time
// (a revoked Proxy, a detached buffer and a throwing getter cannot be shared between calls).

/** Values a trap, getter or toJSON throws: never an Error, so a rethrow is visible. */
const THROWN = ['42', 'undefined', "'text'", 'null', "Symbol('thrown')", '{ code: 1 }'];

/** Plain values of every type, the edges of numbers and strings among them. */
const PLAIN = [
  '0', '-0', '1', '-1', '1.5', 'NaN', 'Infinity', '-Infinity', '2 ** 31', '2 ** 32', '2 ** 53 - 1', '2 ** 53',
  '2 ** 53 + 2', '-(2 ** 53)', 'Number.MAX_VALUE', 'Number.MIN_VALUE', '10n', '2n ** 64n', "Symbol('s')",
  '() => 1', 'class {}', 'null', 'undefined', 'true', 'false', '[]', "['a', 1]", '[[[]]]', '{}',
  'Object.create(null)', "''", "' '", "'\\uD800'", "'\\uDC00'", "'a\\uDBFFb'", "'\\0'", "'e\\u0301'",
  "'/'", "'..'", "'~'", "'x'.repeat(1 << 20)", "'\\u00e9'.repeat(1 << 16)", "'@'.repeat(5000)",
  "new String('a.txt')", 'new Number(1)', 'new Boolean(false)', 'new Date(0)', '/a/g', 'new Map([[1, 2]])',
  'new Set()', 'Promise.resolve(1)', 'new WeakMap()', 'new Error("e")', 'globalThis',
  '(() => { const o = {}; o.self = o; return o; })()',
  '(() => { let o = {}; for (let i = 0; i < 5000; i++) o = { o }; return o; })()',
  'new Array(100000).fill("x")', '{ length: 2 ** 32 - 1 }',
];

/** Values that throw when looked at: proxies with throwing traps, getters, conversions. */
const THROWING = [
  ...THROWN.map((t) => `new Proxy({}, { ownKeys() { throw ${t}; } })`),
  ...THROWN.map((t) => `new Proxy({}, { get() { throw ${t}; } })`),
  ...THROWN.map((t) => `new Proxy({}, { getPrototypeOf() { throw ${t}; } })`),
  'new Proxy({}, { has() { throw 42; }, getOwnPropertyDescriptor() { throw 42; } })',
  'new Proxy([], { get() { throw 42; } })',
  'new Proxy(() => 1, { get() { throw 42; }, apply() { throw 42; } })',
  '(() => { const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); return proxy; })()',
  '(() => { const { proxy, revoke } = Proxy.revocable([], {}); revoke(); return proxy; })()',
  '{ toJSON() { throw 42; } }',
  '{ toJSON() { return undefined; } }',
  '{ toJSON() { return 10n; } }',
  '{ toString() { throw 42; }, valueOf() { throw 42; }, [Symbol.toPrimitive]() { throw 42; } }',
  '{ a: 10n }',
  '{ get a() { throw 42; } }',
];

/** Byte arrays that lie about themselves, and the other binary views. */
const BINARY = [
  'new (class extends Uint8Array { get length() { return 2 ** 31; } })([1])',
  'new (class extends Uint8Array { get length() { return 2 ** 20; } })([1])',
  'new (class extends Uint8Array { get length() { return 4096; } })([1, 2, 3])',
  'new (class extends Uint8Array { get byteLength() { return 2 ** 20; } })([1])',
  'new (class extends Uint8Array { get length() { return -1; } })([1, 2])',
  'new (class extends Uint8Array { get length() { return 0.5; } })([1, 2])',
  'new (class extends Uint8Array { get length() { return NaN; } })([1, 2])',
  'new (class extends Uint8Array { get length() { return 0; } })([1, 2, 3])',
  'new (class extends Uint8Array { get length() { throw 42; } })([1])',
  'new (class extends Uint8Array { get buffer() { throw 42; } })([1])',
  'new (class extends Uint8Array { set() { throw 42; } })([1])',
  'Object.setPrototypeOf({ length: 4, byteLength: 4, 0: 1 }, Uint8Array.prototype)',
  'new Proxy(new Uint8Array([1, 2]), { get(t, k) { if (k === "length") return 2 ** 20; return Reflect.get(t, k); } })',
  '(() => { const a = new Uint8Array(8); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; })()',
  'new Uint8Array(new ArrayBuffer(4, { maxByteLength: 64 }))',
  'new Uint8Array(new SharedArrayBuffer(4))',
  'new Uint8Array(new ArrayBuffer(16), 3, 5)',
  'new Uint8Array([0xff, 0xfe, 0x00, 0xc3])',
  'new Uint8Array(1 << 20)',
  'new Uint16Array([1, 2])',
  'new Int8Array([-1])',
  'new Uint8ClampedArray([1])',
  'new Float64Array([1.5])',
  'new DataView(new ArrayBuffer(2))',
  'new ArrayBuffer(2)',
  'Buffer.from("abc")',
];

export const HOSTILE = [...PLAIN, ...THROWING, ...BINARY];

/**
 * A hostile expression for the argument `name`: the throwing kinds and the lying byte
 * arrays are few among the plain values, so they are drawn more often than their share,
 * and byte arrays mostly where bytes are taken.
 * @param {import('./rng.mjs').Rng} rng @param {string} name
 */
export function pickHostile(rng, name) {
  if (name === 'content' && rng.chance(0.6)) return rng.pick(BINARY);
  const roll = rng.next();
  return rng.pick(roll < 0.4 ? THROWING : roll < 0.55 ? BINARY : PLAIN);
}

/** @param {string} expression @returns {unknown} */
export function make(expression) {
  return new Function(`return (${expression});`)();
}

/**
 * An object whose every key in `keys` is a getter that throws: an options object that
 * passes the key check and explodes when read.
 * @param {string[]} keys
 */
export function throwingGetters(keys) {
  return `{ ${keys.map((k) => `get ${JSON.stringify(k)}() { throw 42; }`).join(', ')} }`;
}

const TYPED_ARRAY = Object.getPrototypeOf(Uint8Array.prototype);
/** The intrinsic getter `name` of typed arrays, which no subclass or own property can fake. */
const intrinsic = (/** @type {string} */ name) => /** @type {(this: unknown) => any} */ (Object.getOwnPropertyDescriptor(TYPED_ARRAY, name)?.get);

/**
 * A copy of the bytes a Uint8Array really holds, whatever its own getters say; null when
 * the value is not a live Uint8Array.
 * @param {unknown} value
 */
export function realBytes(value) {
  try {
    if (!(value instanceof Uint8Array)) return null;
    const buffer = intrinsic('buffer').call(value);
    const view = new Uint8Array(buffer, intrinsic('byteOffset').call(value), intrinsic('byteLength').call(value));
    return Uint8Array.from(view);
  } catch {
    return null;
  }
}
