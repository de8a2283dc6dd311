// Gives the wasm-bindgen glue (pkg/context_assembly.js, pkg/lite/context_assembly_lite.js) the
// package's error contract, which the generated code lacks: a call before `init()` throws an
// `Error` saying that the engine is not initialised (the glue would throw "Cannot read
// properties of undefined"), a call on a freed object throws an `Error` saying it was freed
// (the glue: "null pointer passed to rust"), and `free()` and `[Symbol.dispose]()` may be
// called again (the glue throws). `make pkg` runs it on each glue file wasm-bindgen writes:
//   node crate/wasm/npm/guard-glue.mjs <glue.js>…
// The guards are appended to the module, in its scope: each exported function is replaced by
// one that checks the instance first, each class's methods check the object first, and the
// class is replaced by a Proxy whose `new` checks the instance (a Proxy, so that `instanceof`
// and the objects the glue builds itself keep the class's prototype).
// IMPORTANT: this reads two internals of the glue of wasm-bindgen 0.2.130 (Cargo.toml pins it
// with `=`): the module's `wasm` binding (undefined until init) and each object's `__wbg_ptr`
// (0 once freed). A wasm-bindgen upgrade must keep them or change this file;
// tests/node/error-contract.test.mjs fails if either is gone.
import { readFileSync, writeFileSync } from 'node:fs';

const MARK = '// ---- the error contract (crate/wasm/npm/guard-glue.mjs) ----';

/**
 * The guards for a glue module whose exports are `functions` and `classes`.
 * @param {string[]} functions
 * @param {string[]} classes
 */
function guards(functions, classes) {
  return `
${MARK}
function __caNotReady(what) {
    return new Error(\`\${what}: the engine is not initialised: await init() (or call initSync({ module })) before any other call; the package's Node entry is ready on import\`);
}
function __caReady(what, call) {
    return function (...args) {
        if (wasm === undefined) throw __caNotReady(what);
        return call.apply(this, args);
    };
}
function __caGuardClass(name, cls) {
    const proto = cls.prototype;
    const free = proto.free;
    const freeOnce = function () {
        if (this.__wbg_ptr === 0) return;
        free.call(this);
    };
    for (const method of Object.getOwnPropertyNames(proto)) {
        const call = proto[method];
        if (method === 'constructor' || method.startsWith('__') || typeof call !== 'function' || call === free) continue;
        proto[method] = function (...args) {
            if (this instanceof cls && this.__wbg_ptr === 0) {
                throw new Error(\`\${name}.\${method}: this \${name} was freed (by free(), [Symbol.dispose]() or the end of a using block); create another\`);
            }
            return call.apply(this, args);
        };
    }
    proto.free = freeOnce;
    if (Symbol.dispose) proto[Symbol.dispose] = freeOnce;
    for (const method of Object.getOwnPropertyNames(cls)) {
        const call = cls[method];
        if (method.startsWith('__') || typeof call !== 'function') continue;
        cls[method] = __caReady(\`\${name}.\${method}\`, call);
    }
    return new Proxy(cls, {
        construct(target, args, newTarget) {
            if (wasm === undefined) throw __caNotReady(\`new \${name}\`);
            return Reflect.construct(target, args, newTarget);
        },
    });
}
${functions.map((name) => `${name} = __caReady('${name}', ${name});`).join('\n')}
${classes.map((name) => `${name} = __caGuardClass('${name}', ${name});`).join('\n')}
`;
}

for (const file of process.argv.slice(2)) {
  const glue = readFileSync(file, 'utf8');
  if (glue.includes(MARK)) throw new Error(`${file}: already guarded`);
  if (!/^let wasmModule, wasmInstance, wasm;$/m.test(glue) || !glue.includes('this.__wbg_ptr = 0;')) {
    throw new Error(`${file}: the glue no longer has the \`wasm\` binding or \`__wbg_ptr\` this script reads (a wasm-bindgen upgrade?): update crate/wasm/npm/guard-glue.mjs`);
  }
  const functions = [...glue.matchAll(/^export function (\w+)\(/gm)].map((match) => match[1]);
  const classes = [...glue.matchAll(/^export class (\w+) \{/gm)].map((match) => match[1]);
  writeFileSync(file, glue + guards(functions, classes));
}
