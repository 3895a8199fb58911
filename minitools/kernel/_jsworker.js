// The JavaScript kernel worker: `node --expose-internals _jsworker.js FD_IN FD_OUT`.
//
// Same contract and messages as the Python worker (see _pyworker.py): Content-Length framed
// JSON on two private file descriptors; console.* is captured into ordered output messages.
// Top-level declarations persist across cells (let, const, class, function, and cells using
// await): each cell is parsed with node's bundled acorn, its top-level declarations become
// `var` names of the global scope plus assignments, and a cell using await runs in an async
// wrapper whose last expression statement is returned.
'use strict';
const fs = require('fs');
const net = require('net');
const util = require('util');
const vm = require('vm');
const path = require('path');
const { Console } = require('console');
const acorn = require('internal/deps/acorn/acorn/dist/acorn');

const FD_IN = Number(process.argv[2]);
const FD_OUT = Number(process.argv[3]);

// The host refuses a frame over 64 MiB and kills the kernel: nothing larger is sent (the cell
// gets a RangeError), and text goes in pieces small enough for any mix of characters.
const MAX_FRAME = 60 * 2 ** 20;
const TEXT_PIECE = 2 ** 20;

function send(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  if (body.length > MAX_FRAME) {
    throw new RangeError(`${body.length.toLocaleString('en')} bytes, over the ${MAX_FRAME.toLocaleString('en')} one message to the Run may hold`);
  }
  const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
  let offset = 0;
  while (offset < frame.length) {
    try {
      offset += fs.writeSync(FD_OUT, frame, offset);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
    }
  }
}

// Framing: headers until a blank line, then Content-Length bytes of JSON.
let buffered = Buffer.alloc(0);
const handlers = { execute: null, tool_result: new Map() };
function receive(chunk) {
  buffered = Buffer.concat([buffered, chunk]);
  for (;;) {
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0) return;
    const header = buffered.slice(0, end).toString('ascii');
    const match = /content-length:\s*(\d+)/i.exec(header);
    if (!match) throw new Error(`frame without Content-Length: ${header.slice(0, 80)}`);
    const length = Number(match[1]);
    if (buffered.length < end + 4 + length) return;
    const message = JSON.parse(buffered.slice(end + 4, end + 4 + length).toString('utf8'));
    buffered = buffered.slice(end + 4 + length);
    dispatch(message);
  }
}

// Ordered output --------------------------------------------------------------------
function write(stream, text) {
  const all = String(text);
  for (let start = 0; start < all.length; start += TEXT_PIECE) {
    send({ type: 'output', items: [[stream, all.slice(start, start + TEXT_PIECE)]] });
  }
}
const { Writable } = require('stream');
const capture = (name) => new Writable({ write(chunk, encoding, done) { write(name, chunk.toString()); done(); } });
const stdoutLike = capture('stdout');
const stderrLike = capture('stderr');
const captured = new Console({ stdout: stdoutLike, stderr: stderrLike });

function bundle(value) {
  if (value && typeof value === 'object' && typeof value._repr_mimebundle_ === 'function') {
    const data = Object.assign({}, value._repr_mimebundle_());
    if (!('text/plain' in data)) data['text/plain'] = util.inspect(value, { depth: 4 });
    return data;
  }
  return { 'text/plain': typeof value === 'string' ? util.inspect(value) : util.inspect(value, { depth: 4, maxArrayLength: 100 }) };
}

function display(...values) {
  for (const value of values) {
    try {
      send({ type: 'output', items: [['display', { data: bundle(value), metadata: {} }]] });
    } catch (err) {
      throw new (err.constructor)(`display: the output is ${err.message}; show less (a smaller image, a slice of the data)`);
    }
  }
}

let toolIds = 0;
function tool(name, args = {}) {
  // Returns a promise: `const r = await tool('ast_grep', {...})`; rejects when the call fails.
  const id = ++toolIds;
  return new Promise((resolve, reject) => {
    handlers.tool_result.set(id, (reply) => {
      const result = { ok: !!reply.ok, text: reply.text || '', data: reply.data, images: reply.images || [] };
      if (result.ok) resolve(result);
      else reject(Object.assign(new Error(`tool ${JSON.stringify(name)} failed: ${result.text}`), { result }));
    });
    try {
      send({ type: 'tool_call', id, name, args });
    } catch (err) {
      handlers.tool_result.delete(id);
      reject(new (err.constructor)(`tool(${JSON.stringify(name)}, ...): the arguments are ${err.message}; pass JSON values, and less of them`));
    }
  });
}

globalThis.console = captured;
globalThis.display = display;
globalThis.tool = tool;
globalThis.require = require('module').createRequire(path.join(process.cwd(), '[eval]'));
process.on('unhandledRejection', (err) => write('stderr', `Unhandled promise rejection: ${util.inspect(err)}\n`));
process.on('uncaughtException', (err) => write('stderr', `Uncaught exception: ${(err && err.stack) || err}\n`));

// Cells -------------------------------------------------------------------------------
function names(pattern, out) {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'Identifier': out.push(pattern.name); break;
    case 'ObjectPattern': for (const p of pattern.properties) names(p.type === 'RestElement' ? p.argument : p.value, out); break;
    case 'ArrayPattern': for (const e of pattern.elements) names(e, out); break;
    case 'RestElement': names(pattern.argument, out); break;
    case 'AssignmentPattern': names(pattern.left, out); break;
    default: break;
  }
  return out;
}

function transform(source) {
  const options = { ecmaVersion: 'latest', sourceType: 'script', allowAwaitOutsideFunction: true, allowReturnOutsideFunction: false };
  let isAsync = false;
  try {
    acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'script' });
  } catch (err) {
    acorn.parse(source, options); // a real syntax error is thrown from here
    isAsync = true;
  }
  const ast = acorn.parse(source, options);
  const declared = [];
  const edits = []; // [start, end, text], applied from the end
  const hoisted = [];
  for (const node of ast.body) {
    if (node.type === 'VariableDeclaration') {
      const parts = [];
      for (const d of node.declarations) {
        names(d.id, declared);
        const target = source.slice(d.id.start, d.id.end);
        if (d.init) parts.push(`(${target} = ${source.slice(d.init.start, d.init.end)})`);
        else if (node.kind !== 'var') parts.push(`(${target} = undefined)`);
      }
      edits.push([node.start, node.end, parts.length ? `void (${parts.join(', ')});` : ';']);
    } else if (node.type === 'ClassDeclaration') {
      declared.push(node.id.name);
      edits.push([node.start, node.end, `${node.id.name} = ${source.slice(node.start, node.end)};`]);
    } else if (node.type === 'FunctionDeclaration' && isAsync) {
      declared.push(node.id.name);
      hoisted.push(`${node.id.name} = ${source.slice(node.start, node.end)};`);
      edits.push([node.start, node.end, ';']);
    }
  }
  const last = ast.body[ast.body.length - 1];
  if (isAsync && last && last.type === 'ExpressionStatement') {
    edits.push([last.start, last.end, `return (${source.slice(last.expression.start, last.expression.end)});`]);
  }
  let body = source;
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) body = body.slice(0, start) + text + body.slice(end);
  const prelude = declared.length ? `var ${[...new Set(declared)].join(', ')};\n` : '';
  if (isAsync) return { code: `${prelude}(async () => { ${hoisted.join(' ')}\n${body}\n})()`, isAsync };
  // `{a: 1}` alone is an object, not a block with a label
  if (ast.body.length === 1 && last.type === 'BlockStatement' && /^\s*\{/.test(source)) {
    try { acorn.parse(`(${source})`, { ecmaVersion: 'latest' }); return { code: `(${source})`, isAsync }; } catch (err) { /* a block */ }
  }
  return { code: prelude + body, isAsync };
}

function trimStack(err) {
  if (!(err instanceof Error) || !err.stack) return `Uncaught ${util.inspect(err)}`;
  const lines = err.stack.split('\n');
  const kept = [];
  for (const line of lines) {
    // the worker's own frames and node's internals are not the user's business
    if (/^\s+at /.test(line) && (line.includes(__filename) || line.includes('node:'))) continue;
    kept.push(line);
  }
  return kept.join('\n') || String(err);
}

// SIGINT (the kernel_budget, a cancelled call) stops the cell, never the kernel: a synchronous
// loop is broken by breakOnSigint, an awaited cell is rejected by this handler; between cells
// it does nothing. Node's default would end the process and lose every variable.
const INTERRUPTED = 'ERR_SCRIPT_EXECUTION_INTERRUPTED';
let interruptCell = null;
process.on('SIGINT', () => { if (interruptCell) interruptCell(); });

let count = 0;
async function execute(message) {
  count = message.count || count + 1;
  let value;
  let error = null;
  let interrupted = false;
  try {
    const { code, isAsync } = transform(message.code);
    value = new vm.Script(code, { filename: `cell-${count}.js` }).runInThisContext({ breakOnSigint: true });
    if (isAsync) {
      value = await Promise.race([value, new Promise((resolve, reject) => {
        interruptCell = () => reject(Object.assign(new Error('the cell was interrupted (SIGINT)'), { code: INTERRUPTED }));
      })]);
    }
  } catch (err) {
    interrupted = Boolean(err && err.code === INTERRUPTED);
    error = { ename: interrupted ? 'Interrupted' : (err && err.name) || 'Error',
              evalue: String((err && err.message) || err), traceback: trimStack(err) + '\n' };
  } finally {
    interruptCell = null;
  }
  let result = null;
  if (!error && value !== undefined) result = { data: bundle(value), metadata: {} };
  send({ type: 'result', id: message.id, status: interrupted ? 'interrupted' : error ? 'error' : 'ok', value: result, error });
}

let queue = Promise.resolve();
function dispatch(message) {
  if (message.type === 'execute') queue = queue.then(() => execute(message));
  else if (message.type === 'tool_result') {
    const done = handlers.tool_result.get(message.id);
    handlers.tool_result.delete(message.id);
    if (done) done(message);
  }
}

const input = new net.Socket({ fd: FD_IN, readable: true, writable: false });
input.on('data', receive);
input.on('end', () => process.exit(0));
send({ type: 'ready', pid: process.pid, node: process.execPath, version: process.version });
