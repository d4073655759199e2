// `npm run test:package`: the packed tarball installed in an empty project (tests/package/). Apart
// from `npm test`, whose budget its packing and installing (about half a minute) would not fit.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/package/**/*.test.ts'],
    // Guards against a hang, not time limits (tests/support/cli.ts HANG_GUARD_MS).
    testTimeout: 15 * 60_000,
    hookTimeout: 15 * 60_000,
  },
});
