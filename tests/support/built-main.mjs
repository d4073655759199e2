// The command line of a build into another folder than dist/ (build/bundle.mjs with LPC_BUILD_DIR),
// run as bin/lp-conformance.js runs dist/'s: `node built-main.mjs <build>/cli/main.js <args…>`.
import { pathToFileURL } from 'node:url';

const { main } = await import(pathToFileURL(process.argv[2]).href);
const code = await main(process.argv.slice(3));
const flushed = (stream) => new Promise((done) => stream.write('', done));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
