#!/usr/bin/env node
// Loads the compiled CLI; nothing else, so start-up stays fast.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22 && !process.env.SYLVAN_NO_NODE_WARNING) {
  // ai v7 and chalk 6 declare Node 22; Sylvan's own code runs on 20, so warn rather than refuse.
  process.stderr.write(`sylvan: tested on Node.js 22+, this is ${process.version}; if something fails, upgrade Node.\n`);
}
let cli;
try {
  cli = await import('../dist/cli.js');
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist')) {
    process.stderr.write('sylvan: the build is missing. Run `npm install` (or `npm run build`) in the Sylvan folder first.\n');
    process.exit(1);
  }
  throw error;
}
process.exit(await cli.main());
