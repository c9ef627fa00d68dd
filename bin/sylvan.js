#!/usr/bin/env node
// Loads the compiled CLI; nothing else, so start-up stays fast. `--version` is answered here from
// package.json and `--help` loads only the config module, both before the CLI and its imports.
// CommonJS (bin/package.json says so): Node starts a CommonJS entry measurably faster than an ES module.
'use strict';

const args = process.argv.slice(2);
const only = (...flags) => args.length === 1 && flags.includes(args[0]);

if (only('--version', '-v')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // Node 22.1+ keeps compiled code on disk between runs; older Node simply compiles every time.
  require('node:module').enableCompileCache?.();
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20 && !process.env.SYLVAN_NO_NODE_WARNING) {
    // CI runs the whole suite on Node 20 and 22; older Node is not tried, so warn rather than refuse.
    process.stderr.write(`sylvan: tested on Node.js 20 and 22, this is ${process.version}; if something fails, upgrade Node.\n`);
  }
  const help = only('--help', '-h');
  import(help ? '../dist/config.js' : '../dist/cli.js').then(
    async (loaded) => {
      if (help) process.stdout.write(`${loaded.HELP}\n`);
      else process.exit(await loaded.main());
    },
    (error) => {
      if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
        // The entry itself (cli.js and config.js import no other file statically: the built-CLI test
        // holds it); a package or chunk missing later is named by cli.ts.
        process.stderr.write('sylvan: the build is missing. Run `npm install` (or `npm run build`) in the Sylvan folder first.\n');
        process.exit(1);
      }
      throw error;
    },
  );
}
