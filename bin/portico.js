#!/usr/bin/env node
// The entry of `portico`, `npm start` and `npm run worker`. Plain JavaScript, so that an older Node
// can read it and say what is wrong instead of failing on the TypeScript it cannot load.
// 24.7 is the first with argon2id in node:crypto, which hub passwords are hashed with.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 24 || (major === 24 && minor < 7)) {
  process.stderr.write(`Portico needs Node.js 24.7 or later; this is ${process.versions.node}\n`);
  process.exit(1);
}
// V8's compiled code for Portico's modules is kept on disk (the system's temporary folder,
// NODE_COMPILE_CACHE to choose another, NODE_DISABLE_COMPILE_CACHE=1 to turn it off): a second
// start loads it instead of compiling every module again.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
const { runProcessCli } = await import('../src/main/cli.ts');
runProcessCli(process.argv.slice(2));
