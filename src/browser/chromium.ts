/**
 * The one way lp-conformance starts a browser: the HTML report's test, and the checks of a page in
 * checks next. Headless Chromium driven by playwright-core, from one of two executables:
 * - `LPC_CHROMIUM=/path/to/chromium`, when set: any Chromium or Chrome (e.g. Debian's /usr/bin/chromium);
 * - otherwise the Chromium that `@sparticuz/chromium` ships inside its npm package (Linux x64), unpacked
 *   from its Brotli archive into the temporary directory at the first call (a few seconds, then reused).
 * Nothing is downloaded, at install or at run time. When neither is usable the error says what to set.
 * Both packages are imported when first needed: loading them costs every run a quarter of a second,
 * and most runs open no browser.
 */
import { accessSync, constants, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, LaunchOptions } from 'playwright-core';

export const CHROMIUM_ENV = 'LPC_CHROMIUM';

/**
 * `@sparticuz/chromium`'s flags (made for AWS Lambda) that are dropped:
 * - `--disable-web-security`, `--allow-running-insecure-content`: they lower the page's defences, and
 *   the checks open pages a hostile target serves, which must keep the same-origin policy;
 * - `--single-process`: with it the browser dies when a page is closed and another opened (seen
 *   with 143.0.0 and playwright-core 1.65.1), and a run opens many pages in one browser;
 * - the GPU emulated in software (`--use-gl=angle`, `--use-angle=swiftshader`, `--in-process-gpu`...):
 *   the pages the checks open need no GL, and compositing them through SwiftShader cost a third of
 *   the browser's CPU. `--disable-gpu` (GPU_OFF) draws them with Skia's software raster instead,
 *   screenshots included (DEVELOPERS.md "Dependencies").
 */
const DROPPED_FLAGS = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
  '--in-process-gpu',
]);
const GPU_OFF = '--disable-gpu';

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

/** How long a process waits for another one's unpacking, and after how long a lock is taken as left behind. */
const UNPACK_WAIT_MS = 120_000;

/**
 * `@sparticuz/chromium` unpacks into the shared temporary directory and takes the binary as ready as
 * soon as its file exists: a second process starting meanwhile (another test file, another run on the
 * machine) would launch a half-written binary. A lock directory makes the others wait for the first.
 */
async function unpackOnce(): Promise<string> {
  const lock = join(tmpdir(), 'lp-conformance-chromium.lock');
  const deadline = Date.now() + UNPACK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      // Left behind by a process that died while unpacking.
      if (Date.now() - statSync(lock).mtimeMs > UNPACK_WAIT_MS) rmSync(lock, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by its owner: try again.
    }
    if (Date.now() > deadline) throw new Error(`another process has been unpacking Chromium for ${UNPACK_WAIT_MS / 1000} s (lock ${lock})`);
    await sleep(200);
  }
  try {
    const { default: sparticuz } = await import('@sparticuz/chromium');
    return await sparticuz.executablePath();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

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
  // One unpacking per process, and one at a time on the machine.
  unpacked ??= unpackOnce();
  let executablePath: string;
  try {
    executablePath = await unpacked;
  } catch (error) {
    unpacked = undefined;
    throw new ChromiumUnavailableError(`no Chromium: unpacking @sparticuz/chromium failed (${firstLine(error)}); ${HINT}`);
  }
  const { default: sparticuz } = await import('@sparticuz/chromium');
  return { executablePath, args: [...sparticuz.args.filter((flag) => !DROPPED_FLAGS.has(flag)), GPU_OFF], source: '@sparticuz/chromium' };
}

/** Starts headless Chromium (see the module comment for which one); the caller closes it. */
export async function launchChromium(options: Omit<LaunchOptions, 'executablePath'> = {}): Promise<Browser> {
  const exe = await resolveChromium();
  const { chromium } = await import('playwright-core');
  try {
    return await chromium.launch({ ...options, headless: true, executablePath: exe.executablePath, args: [...exe.args, ...(options.args ?? [])] });
  } catch (error) {
    // An unpacking cut short (a killed process) leaves a binary that is reused as it is.
    const retry = exe.source === CHROMIUM_ENV ? '' : `; if it was cut short while unpacking, remove ${exe.executablePath} to unpack it again`;
    throw new ChromiumUnavailableError(`Chromium from ${exe.source} (${exe.executablePath}) did not start: ${firstLine(error)}${retry}; ${HINT}`);
  }
}
