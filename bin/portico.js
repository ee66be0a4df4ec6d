#!/usr/bin/env node
// The npm `bin` entry: hands over to the TypeScript CLI, which Node 24 runs directly.
const { runCli } = await import('../src/main/cli.ts');
runCli(process.argv.slice(2));
