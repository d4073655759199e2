/**
 * Before any check runs: each selected family's set-up, through its registration. A family whose
 * credentials a run requires must have its variables set; then its own `preflight` (a log-in, a
 * browser). A SetupError is exit 2 with its one line; what is not an error is a warning.
 */
import { SetupError } from '../families/family.js';
import { FAMILIES } from '../families/registry.js';
import type { Profile } from '../profile/index.js';
import { createSecrets, credentialsMissing } from '../target/secrets.js';

export { SetupError };

export async function preflight(
  profile: Profile,
  options: { selects: (family: string) => boolean; timeoutMs: number; warn: (line: string) => void },
): Promise<void> {
  const secrets = createSecrets(profile, options.timeoutMs);
  for (const family of FAMILIES) {
    if (!options.selects(family.name)) continue;
    if (family.auth?.required) {
      const missing = credentialsMissing(profile, family.name);
      if (missing) throw new SetupError(missing);
    }
    await family.preflight?.({ profile, timeoutMs: options.timeoutMs, token: () => secrets.token(family.name), warn: options.warn });
  }
}
