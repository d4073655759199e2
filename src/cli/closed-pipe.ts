// A reader that stops early (`run --list | head`, `explain --json | head -1`) closes the pipe of the
// tool's standard output: that is no error of the tool's. Without a listener, Node throws the pipe's
// EPIPE as an unhandled 'error' event and the process ends with a stack trace.

let installed = false;

/**
 * Once per process, however many times main() runs in it (the tests' command-line hosts call it
 * again; a listener per call would pile up on stdout): a closed standard output or error stops what
 * is written to it and nothing else. A listing ends with its exit code 0; a run goes on to its
 * reports and ends with its own exit code, so that `run | head` in a gate still fails on a failure.
 * Any other error of the stream is thrown as before.
 */
export function tolerateClosedPipes(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
