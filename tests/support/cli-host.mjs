// A command-line host for the tests (tests/support/cli.ts `runCli`): one Node process that calls the
// built command line's main() (dist/cli/main.js, what bin/lp-conformance.js calls) once per request
// from its parent, one call at a time, each with the parent's environment, working folder and
// arguments, and sends back the exit code and what the call wrote to stdout and stderr. A new
// process per command costs more than the command itself in most tests: loading the tool's bundle
// and starting Node, most of what a one-check run costs, which a host pays once.
// Each `run` still starts its own suites' worker, as it does in a process of its own.
import { main } from '../../dist/cli/main.js';

const streams = { stdout: process.stdout, stderr: process.stderr };
const original = { stdout: process.stdout.write, stderr: process.stderr.write };

/** Replaces the process's environment with `env`, whole. */
function useEnvironment(env) {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
}

async function call({ id, args, env, cwd, stream }) {
  const result = { id, code: 1, stdout: '', stderr: '' };
  useEnvironment(env);
  process.chdir(cwd);
  for (const key of ['stdout', 'stderr']) {
    streams[key].write = (chunk, encoding, callback) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
      result[key] += text;
      // A command that runs until stopped (`serve`) says what it listens on as it goes.
      if (stream) process.send({ id, output: { [key]: text } });
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') process.nextTick(done);
      return true;
    };
  }
  try {
    result.code = await main(args);
  } catch (error) {
    // What the process would print before exiting 1.
    result.stderr += `${error instanceof Error ? error.stack : String(error)}\n`;
  } finally {
    streams.stdout.write = original.stdout;
    streams.stderr.write = original.stderr;
    process.exitCode = undefined;
  }
  process.send(result);
}

let queue = Promise.resolve();
process.on('message', (request) => {
  // A signal for the call in progress (`serve` stops on SIGTERM), as the process would receive it.
  if (request.signal) process.emit(request.signal, request.signal);
  else queue = queue.then(() => call(request));
});
// The parent is gone (its test file ended, or it was killed): so is its host.
process.on('disconnect', () => process.exit(0));
