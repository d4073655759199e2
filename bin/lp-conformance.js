#!/usr/bin/env node
// The command-line entry: the compiled CLI lives in dist/ (built by `npm ci` through `prepare`), as
// one bundle (build/bundle.mjs).
import { main } from '../dist/cli/main.js';

const code = await main(process.argv.slice(2));
// exit() rather than exitCode, so that idle keep-alive sockets cannot hold the process open; but
// only once stdout and stderr are flushed: a pipe read slowly (CI logs) must get the whole report.
const flushed = (stream) => new Promise((done) => stream.write('', done));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
