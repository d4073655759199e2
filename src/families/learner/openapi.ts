/**
 * The learner API's part of `lp-conformance openapi`: the specification's paths (spec#learner-facing-api-1)
 * at the profile's routes, their answers the learner contracts (contracts/learner.*.yaml), x-api-key
 * and a learner's Bearer token. The token exchange and the branding and progress operations are the
 * reference server's choices (docs/decisions/learner/reference-server-and-player.md), as are the error statuses: 401 for a missing key or
 * token, 404 for an unknown identifier, 422 for one that is not a GUID, 400 for a query parameter that
 * fails validation.
 */
import type { BuildOptions, ContractSchemas, JsonObject, OperationDescription } from '../../openapi/base/document.js';
import { describedPaths, embedContracts, USERNAME_PASSWORD } from '../../openapi/base/document.js';
import type { Profile } from '../../profile/base/types.js';
import { LEARNER_OPERATIONS } from './operations.js';

const PAGE: JsonObject[] = [
  { name: '_limit', in: 'query', required: false, description: 'Page size.', schema: { type: 'integer', minimum: 1 } },
  { name: '_offset', in: 'query', required: false, description: 'Page number, 0-based.', schema: { type: 'integer', minimum: 0 } },
];
const COMPLETED: JsonObject = {
  name: 'includeCompletedSessions',
  in: 'query',
  required: false,
  description: 'Also list completed sessions (spec#learner-facing-api-1).',
  schema: { type: 'boolean' },
};
const UNAUTHORIZED = [401, 'x-api-key or the Bearer token missing or not valid'] as const;
const BAD_QUERY = [400, 'a query parameter fails validation'] as const;
const PATH_ID = [
  [404, 'an identifier in the path does not exist'],
  [422, 'an identifier in the path is not a GUID'],
] as const;
const list = (summary: string, contract: string, extra: JsonObject[] = []): OperationDescription => ({
  summary,
  query: [...extra, ...PAGE],
  success: { statuses: [200], contract },
  errors: [BAD_QUERY, UNAUTHORIZED],
});
const one = (summary: string, contract: string, query: JsonObject[] = []): OperationDescription => ({
  summary,
  query,
  success: { statuses: [200], contract },
  errors: [UNAUTHORIZED, ...PATH_ID],
});

const OPERATIONS: Readonly<Record<keyof typeof LEARNER_OPERATIONS, OperationDescription>> = {
  'learner.auth.token': {
    summary: "Obtain a learner token (x-api-key and a learner's username and password; a new token revokes the previous one)",
    request: {
      media: 'application/json',
      schema: USERNAME_PASSWORD,
    },
    success: { statuses: [200], contract: 'learner/token' },
    errors: [
      [400, 'a body field is missing'],
      [401, 'x-api-key missing or wrong, or wrong credentials'],
    ],
    security: [{ apiKey: [] }],
  },
  'learner.catalog.list': list("The learner's catalog", 'learner/envelope.courses'),
  'learner.categories.list': list("The categories of the learner's catalog", 'learner/envelope.categories'),
  'learner.courses.get': one('A course of the catalog, with its lessons', 'learner/courseDetail'),
  'learner.calendar.list': list("The learner's calendar", 'learner/envelope.calendar', [COMPLETED]),
  'learner.calendar.sessions': list("The sessions of the learner's calendar", 'learner/envelope.sessions', [COMPLETED]),
  'learner.courses.calendar': one('The calendar overview of an instructor-led course', 'learner/calendarOverview'),
  'learner.sessions.list': {
    ...one('The sessions of an instructor-led course', 'learner/envelope.sessions', [COMPLETED, ...PAGE]),
    errors: [BAD_QUERY, UNAUTHORIZED, ...PATH_ID],
  },
  'learner.sessions.get': one('A session of an instructor-led course', 'learner/session', [COMPLETED]),
  'learner.branding.get': { summary: "The learner's department branding", success: { statuses: [200], contract: 'learner/branding' }, errors: [UNAUTHORIZED] },
  'learner.progress.get': one("The learner's progress in a course's lessons", 'learner/progress'),
  'learner.progress.save': {
    ...one("Save the learner's progress in a lesson", 'learner/lessonProgress'),
    request: { contract: 'learner/lessonProgress.update', media: 'application/json' },
    errors: [[400, 'the body fails validation'], UNAUTHORIZED, ...PATH_ID],
  },
};

/** The OpenAPI part of the profile's learner API. */
export function learnerOpenApi(contracts: ContractSchemas, p: Profile, _options: BuildOptions): JsonObject {
  const routes = Object.fromEntries(Object.keys(LEARNER_OPERATIONS).map((id) => [id, p.operations[id as keyof typeof LEARNER_OPERATIONS]]));
  return {
    servers: [{ url: p.families.learner.baseUrl, description: `Learner API (profile ${p.name})` }],
    paths: describedPaths({
      operations: OPERATIONS,
      routes,
      tag: () => 'learner',
      media: 'application/json',
      errorContract: 'learner/error',
      security: [{ apiKey: [], learnerBearer: [] }],
      source: p.source,
    }),
    components: {
      schemas: embedContracts(contracts, 'learner/'),
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key, on every operation.' },
        learnerBearer: { type: 'http', scheme: 'bearer', description: 'The token learner.auth.token answers.' },
      },
    },
  };
}
