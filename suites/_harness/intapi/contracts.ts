/** The Integration API's contract names (contracts/intapi.*.yaml), checked against the files. */
import { CONTRACT_NAMES } from '../contracts.js';

/** The Integration API's contracts, named literally so that the names its code uses are checked
 * when it compiles; loading this module fails when the list and the `intapi.*.yaml` files disagree. */
export const INTAPI_CONTRACT_NAMES = [
  'intapi/token',
  'intapi/resource',
  'intapi/resource.list',
  'intapi/submission.create',
  'intapi/submission.update',
  'intapi/submission',
  'intapi/template',
  'intapi/questionBank.create',
  'intapi/questionBank.update',
  'intapi/questionBank',
  'intapi/question.create',
  'intapi/question.update',
  'intapi/question',
  'intapi/questionOption.request',
  'intapi/questionOption',
  'intapi/envelope.resources',
  'intapi/envelope.submissions',
  'intapi/envelope.templates',
  'intapi/envelope.questionBanks',
  'intapi/envelope.questions',
  'intapi/evaluationQuestion',
  'intapi/evaluationAnswer',
  'intapi/envelope.evaluationQuestions',
  'intapi/envelope.evaluationAnswers',
  'intapi/country',
  'intapi/country.list',
  'intapi/province',
  'intapi/province.list',
  'intapi/error',
  'intapi/user',
  'intapi/user.list',
  'intapi/user.write',
  'intapi/envelope.users',
  'intapi/directReport',
  'intapi/directReports.update',
  'intapi/envelope.directReports',
  'intapi/group',
  'intapi/group.create',
  'intapi/group.update',
  'intapi/group.assign',
  'intapi/groupUser',
  'intapi/envelope.groups',
  'intapi/envelope.groupUsers',
  'intapi/enrollment',
  'intapi/enrollment.create',
  'intapi/envelope.enrollments',
] as const;

export type IntapiContractName = (typeof INTAPI_CONTRACT_NAMES)[number];

const listed: readonly string[] = INTAPI_CONTRACT_NAMES;
const unlisted = CONTRACT_NAMES.filter((name) => name.startsWith('intapi/') && !listed.includes(name));
if (unlisted.length > 0) throw new Error(`contracts: ${unlisted.join(', ')} not in INTAPI_CONTRACT_NAMES`);
const absent = INTAPI_CONTRACT_NAMES.filter((name) => !CONTRACT_NAMES.includes(name));
if (absent.length > 0) throw new Error(`contracts: no file for ${absent.join(', ')}`);
