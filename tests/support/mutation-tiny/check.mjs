// The "checks" of the tiny family: exit 0 when the rule holds (the mutant survived), 1 when it does not.
import { withinLimit } from './rule.mjs';

process.exitCode = withinLimit(100) && !withinLimit(101) ? 0 : 1;
