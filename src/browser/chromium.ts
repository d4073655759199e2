/**
 * The one way lp-conformance starts a browser: the HTML report's test today, the learner-API player
 * checks next. Headless Chromium driven by playwright-core, from one of two executables:
 * - `LPC_CHROMIUM=/path/to/chromium`, when set: any Chromium or Chrome (e.g. Debian's /usr/bin/chromium);
 * - otherwise the Chromium that `@sparticuz/chromium` ships inside its npm package (Linux x64), unpacked
 *   from its Brotli archive into the temporary directory at the first call (a few seconds, then reused).
 * Nothing is downloaded, at install or at run time. When neither is usable the error says what to set.
 */
import { accessSync, constants, statSync } from 'node:fs';
import sparticuz from '@sparticuz/chromium';
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_ENV = 'LPC_CHROMIUM';

/**
 * `@sparticuz/chromium`'s flags (made for AWS Lambda) that are dropped:
 * - `--disable-web-security`, `--allow-running-insecure-content`: they lower the page's defences, and
 *   the learner checks open pages a hostile target serves, which must keep the same-origin policy;
 * - `--single-process`: with it the browser dies when a page is closed and another opened (seen
 *   with 143.0.0 and playwright-core 1.65.1), and a run opens many pages in one browser.
 */
const DROPPED_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);

export interface ChromiumExecutable {
  executablePath: string;
  args: string[];
  /** Where it came from, for messages: `LPC_CHROMIUM` or `@sparticuz/chromium`. */
  source: string;
}

/** Fails with the one line a user needs: what is wrong and what to set. */
export class ChromiumUnavailableError extends Error {
  override name = 'ChromiumUnavailableError';
}

const HINT = `set ${CHROMIUM_ENV} to a Chromium or Chrome executable (e.g. ${CHROMIUM_ENV}=/usr/bin/chromium after apt-get install chromium)`;

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

let unpacked: Promise<string> | undefined;

/** Which executable a launch would use, and with which flags; throws ChromiumUnavailableError. */
export async function resolveChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumExecutable> {
  const chosen = env[CHROMIUM_ENV];
  if (chosen !== undefined && chosen !== '') {
    try {
      if (!statSync(chosen).isFile()) throw new Error('not a file');
      accessSync(chosen, constants.X_OK);
    } catch (error) {
      throw new ChromiumUnavailableError(`${CHROMIUM_ENV}=${chosen} is not an executable file (${firstLine(error)})`);
    }
    // Playwright adds its own headless and quiet flags (no background networking, no first-run UI).
    return { executablePath: chosen, args: [], source: CHROMIUM_ENV };
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new ChromiumUnavailableError(
      `no Chromium: the bundled @sparticuz/chromium runs on Linux x64 only, this is ${process.platform}-${process.arch}; ${HINT}`,
    );
  }
  // One unpacking per process: two concurrent first calls would otherwise both write the binary.
  unpacked ??= sparticuz.executablePath();
  let executablePath: string;
  try {
    executablePath = await unpacked;
  } catch (error) {
    unpacked = undefined;
    throw new ChromiumUnavailableError(`no Chromium: unpacking @sparticuz/chromium failed (${firstLine(error)}); ${HINT}`);
  }
  return { executablePath, args: sparticuz.args.filter((flag) => !DROPPED_FLAGS.has(flag)), source: '@sparticuz/chromium' };
}

/** Starts headless Chromium (see the module comment for which one); the caller closes it. */
export async function launchChromium(options: Omit<LaunchOptions, 'executablePath'> = {}): Promise<Browser> {
  const exe = await resolveChromium();
  try {
    return await chromium.launch({ ...options, headless: true, executablePath: exe.executablePath, args: [...exe.args, ...(options.args ?? [])] });
  } catch (error) {
    throw new ChromiumUnavailableError(`Chromium from ${exe.source} (${exe.executablePath}) did not start: ${firstLine(error)}; ${HINT}`);
  }
}
