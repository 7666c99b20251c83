'use strict';
/*
 * Part of codeproof: a time limit per node:test test, inside the sandbox.
 *
 * Loaded with `node --require=nodelimit.cjs --test ...` (node passes --require on to the
 * process of each test file). Every test() and it() from require('node:test') then runs
 * its function under a vm timeout, which interrupts even a synchronous loop that never
 * ends, and gets the same `timeout` option for its asynchronous part. A test that never
 * returns (an input the code loops on) fails alone and the other tests go on, instead of
 * timing out the whole run with every other result. When an asynchronous test was left
 * pending, the file's process exits after its last test rather than waiting for timers
 * that test left behind. codeproof writes the limit in milliseconds in place of the
 * token below. Files that `import` node:test as an ES module are not limited.
 */
const Module = require('node:module');
const vm = require('node:vm');

const LIMIT_MS = Number('@LIMIT_MS@');
const SLOT = '__codeproofTestCall';
const load = Module._load;
const limitedApis = new WeakMap();
let pendingLeft = false;
let exitHooked = false;

function watch(result) {
  if (result === null || typeof result !== 'object' || typeof result.then !== 'function') return;
  let settled = false;
  const done = () => { settled = true; };
  result.then(done, done);
  setTimeout(() => { if (!settled) pendingLeft = true; }, LIMIT_MS).unref();
}

function limitedBody(fn) {
  const body = function (...args) {
    globalThis[SLOT] = () => fn.apply(this, args);
    try {
      const result = vm.runInThisContext(`${SLOT}()`, { timeout: LIMIT_MS });
      watch(result);
      return result;
    } catch (error) {
      if (error !== null && typeof error === 'object' && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new Error(`the test did not finish within ${LIMIT_MS / 1000} s`);
      }
      throw error;
    }
  };
  // node:test reads the arity to tell (t, done) callback tests from the others.
  Object.defineProperty(body, 'length', { value: fn.length });
  Object.defineProperty(body, 'name', { value: fn.name });
  return body;
}

function limitedRegister(register) {
  const limited = function (...args) {
    const at = args.findIndex((arg) => typeof arg === 'function');
    if (at >= 0) args[at] = limitedBody(args[at]);
    const options = args.findIndex((arg) => arg !== null && typeof arg === 'object');
    if (options < 0) {
      args.splice(at >= 0 ? at : args.length, 0, { timeout: LIMIT_MS });
    } else if (args[options].timeout === undefined) {
      args[options] = { ...args[options], timeout: LIMIT_MS };
    }
    return register.apply(this, args);
  };
  return Object.assign(limited, register);
}

function limitedWithVariants(register) {
  const limited = limitedRegister(register);
  for (const name of ['only', 'skip', 'todo']) {
    if (typeof register[name] === 'function') limited[name] = limitedRegister(register[name]);
  }
  return limited;
}

function limitedApi(api) {
  if (!limitedApis.has(api)) {
    const test = limitedWithVariants(api);
    test.test = test;
    if (typeof api.it === 'function') test.it = limitedWithVariants(api.it);
    limitedApis.set(api, test);
  }
  return limitedApis.get(api);
}

Module._load = function (request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request !== 'node:test' || typeof exported !== 'function') return exported;
  if (!exitHooked && typeof exported.after === 'function') {
    exitHooked = true;
    exported.after(() => { if (pendingLeft) setImmediate(() => process.exit()); });
  }
  return limitedApi(exported);
};
