/**
 * `lp-conformance openapi [--profile FILE] [--target URL]`: the OpenAPI 3.1 document (YAML) of the
 * profile's APIs (each family that describes its own) on stdout. A bad profile or URL is a ProfileError (exit 2, one line).
 */
import { loadProfile, withTarget } from '../profile/index.js';
import { renderOpenApi } from '../openapi/index.js';
import { commandHelp, OPENAPI, parseCommand } from './args.js';

export function openapiCommand(argv: string[]): number {
  const { values, help } = parseCommand(OPENAPI, argv);
  if (help) {
    process.stdout.write(`${commandHelp(OPENAPI)}\n`);
    return 0;
  }
  let profile = loadProfile(values.profile);
  if (values.target !== undefined) profile = withTarget(profile, values.target);
  process.stdout.write(renderOpenApi(profile));
  return 0;
}
