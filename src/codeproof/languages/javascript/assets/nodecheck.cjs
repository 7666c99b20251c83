// Syntax-check JavaScript files inside the sandbox with `node --check`. Part of codeproof.
// Usage: node nodecheck.cjs FILE...  Prints a JSON array of {file, status, stderr}.
'use strict';
const { spawnSync } = require('node:child_process');

const results = process.argv.slice(2).map((file) => {
  const done = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
  return { file, status: done.status, stderr: done.stderr || String(done.error || '') };
});
process.stdout.write(JSON.stringify(results));
