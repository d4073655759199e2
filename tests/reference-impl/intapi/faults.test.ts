// Every fault constructs, and each named fault changes the behaviour it names (spot checks; the
// proof that the suite's checks catch them is tests/controls/negative.test.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createReferenceServer, INTAPI_FAULTS, listIntapiFaults } from '../../../reference-impl/index.js';
import type { IntapiNamedFaultName } from '../../../reference-impl/intapi/faults.js';
import {
  ADMIN,
  COURSE1,
  COURSE2,
  COURSE4,
  CREDENTIALS_BODY,
  type Harness,
  idsOf,
  itemsOf,
  type JsonRecord,
  startServer,
  SUBMISSION_FIELDS,
  TEMPLATE,
  UNKNOWN,
  USER2,
  USER5,
  VALID_SUBMISSION,
} from './_support.js';
import { USERS_SPOTS } from './users-spots.js';
import { authorizeRequest, exchange, oauthTokens } from '../_oauth.js';

type Probe = (h: Harness) => Promise<unknown>;
interface Spot {
  readonly probe: Probe;
  /** [without the fault, with it] */
  readonly expected: readonly [unknown, unknown];
}

const status = (p: Promise<{ status: number }>) => p.then((r) => r.status);
const envelopeField =
  (path: string, field: string): Probe =>
  async (h) =>
    (await h.get(path)).obj[field];
const total = (path: string): Probe => envelopeField(path, 'totalItems');
const q = (filter: string) => `/resources?_limit=1000&_filter=${encodeURIComponent(filter)}`;
const bankOf = async (h: Harness) => String((await h.call('POST', '/question-banks', { body: { name: 'old' } })).obj.id);
const QUESTION = { questionType: 'Text', name: 'q', questionOptions: [] };
const names = async (h: Harness, path: string) => itemsOf(await h.get(path), 'resources').map((r) => String(r.name));

/** Ids of the reference server's geography (reference-impl/intapi/provinces/data.ts: the hex codes of the ISO codes' characters). */
const COUNTRY_CA = '00000000-0000-4000-8000-c00000004341';
const PROVINCE_CA_ON = '00000000-0000-4000-8000-b043414f4e00';
const USER3 = '00000000-0000-4000-8000-000000000003';
const USER4 = '00000000-0000-4000-8000-000000000004';
const MANUAL_GROUP = '00000000-0000-4000-8000-000000000401';
const AUTOMATIC_GROUP = '00000000-0000-4000-8000-000000000402';
const SESSIONS = ['00000000-0000-4000-8000-000000000501', '00000000-0000-4000-8000-000000000502'] as const;
const DELETED_COURSE = '00000000-0000-4000-8000-000000000109';
/** Emails sent by one re-enrollment of user 4 in session 1 of course 4. */
const reEnrollMails = async (h: Harness): Promise<number> => {
  await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[0]}`);
  const before = h.mails.length;
  await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[0]}?reEnroll=true`);
  return h.mails.length - before;
};

// The rule faults act on batches over time: tests/reference-impl/intapi/rules.test.ts proves each with a fake clock.
const SPOTS: Record<Exclude<IntapiNamedFaultName, `intapi.rule-${string}`>, Spot> = {
  'intapi.accept-missing-api-key': { probe: (h) => status(h.get('/resources', { noKey: true })), expected: [401, 200] },
  'intapi.accept-wrong-api-key': { probe: (h) => status(h.get('/resources', { headers: { 'x-api-key': 'x' } })), expected: [401, 200] },
  'intapi.token-not-required': { probe: (h) => status(h.get('/resources', { noToken: true })), expected: [401, 200] },
  'intapi.raw-token-rejected': { probe: (h) => status(h.get('/resources', { noToken: true, headers: { authorization: h.token } })), expected: [200, 401] },
  'intapi.previous-token-valid': {
    probe: async (h) => {
      const old = h.token;
      await h.authenticate();
      return status(h.get('/resources', { token: old }));
    },
    expected: [401, 200],
  },
  'intapi.current-user-is-first-user': { probe: (h) => status(h.get(`/enrollments/${COURSE1}/myresources`)), expected: [200, 404] },
  'intapi.authenticate-missing-field-401': { probe: (h) => status(h.authenticate({ username: 'lpc.admin' })), expected: [400, 401] },
  'intapi.accept-wrong-password': { probe: (h) => status(h.authenticate({ ...CREDENTIALS_BODY, password: 'x', privateKey: 'y' })), expected: [401, 200] },
  'intapi.authenticate-201': {
    probe: async (h) => {
      const res = await h.authenticate();
      // The same body: a bare JSON string token, which works.
      return [
        res.status,
        typeof res.json,
        await status(h.get('/resources', { token: String(res.json) })),
        await status(h.authenticate({ username: 'x', password: 'y', privateKey: 'z' })),
      ];
    },
    expected: [
      [200, 'string', 200, 401],
      [201, 'string', 200, 401],
    ],
  },
  'intapi.unsupported-version-accepted': { probe: (h) => status(h.get('/resources', { version: '3' })), expected: [400, 200] },
  'intapi.v2-submissions-on-v1': { probe: (h) => status(h.get('/submissions', { version: '1' })), expected: [404, 200] },
  'intapi.missing-version-as-v2': { probe: async (h) => Array.isArray((await h.get('/resources', { version: null })).json), expected: [true, false] },
  'intapi.error-code-mismatch': { probe: async (h) => (await h.get(`/templates/${UNKNOWN}`)).obj.code, expected: [404, 400] },
  'intapi.error-body-missing-term': { probe: async (h) => 'term' in (await h.get(`/templates/${UNKNOWN}`)).obj, expected: [true, false] },
  'intapi.validations-unnamed': {
    probe: async (h) => (await h.call('POST', '/question-banks', { body: { name: 'n'.repeat(256) } })).obj.validations,
    expected: [['name: must be at most 255 characters'], ['must be at most 255 characters']],
  },
  'intapi.not-json-500': { probe: (h) => status(h.call('POST', '/submissions', { body: '{' })), expected: [400, 500] },
  'intapi.not-guid-404': { probe: (h) => status(h.get('/submissions/abc')), expected: [422, 404] },
  'intapi.url-limit-4k': { probe: (h) => status(h.get(q(`name eq '${'a'.repeat(5000)}'`))), expected: [200, 414] },
  'intapi.html-content-type': {
    probe: async (h) => (await h.get('/resources?_limit=1')).contentType.split(';')[0],
    expected: ['application/json', 'text/html'],
  },
  'intapi.text-content-type': {
    probe: async (h) => {
      const id = String((await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj.id);
      return (await h.get(`/submissions/${id}`)).contentType.split(';')[0];
    },
    expected: ['application/json', 'text/plain'],
  },
  'intapi.crash-on-unknown-submission': {
    probe: async (h) => {
      const res = await h.get(`/submissions/${UNKNOWN}`);
      return [res.status, res.json === undefined];
    },
    expected: [
      [404, false],
      [500, true],
    ],
  },
  'intapi.wrong-content-type-accepted': {
    probe: (h) => status(h.call('POST', '/question-banks', { body: '{"name":"n"}', headers: { 'content-type': 'text/plain' } })),
    expected: [415, 201],
  },
  'intapi.body-limit-unenforced': {
    probe: (h) => status(h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, description: 'x'.repeat(2 * 1024 * 1024) } })),
    expected: [413, 422],
  },
  'intapi.unknown-body-field-accepted': { probe: (h) => status(h.call('POST', '/question-banks', { body: { name: 'n', extra: 1 } })), expected: [422, 201] },
  'intapi.not-object-unreasoned': {
    probe: async (h) => {
      const res = await h.call('POST', '/question-banks', { body: '[]', headers: { 'content-type': 'application/json' } });
      return [res.status, (res.obj.validations as unknown[]).length > 0];
    },
    expected: [
      [422, true],
      [422, false],
    ],
  },
  'intapi.null-optional-rejected': {
    probe: (h) => status(h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, cost: null } })),
    expected: [201, 422],
  },
  'intapi.create-submission-200': { probe: (h) => status(h.call('POST', '/submissions', { body: VALID_SUBMISSION })), expected: [201, 200] },
  'intapi.create-bank-200': { probe: (h) => status(h.call('POST', '/question-banks', { body: { name: 'n' } })), expected: [201, 200] },
  'intapi.create-question-200': {
    probe: async (h) => status(h.call('POST', `/question-banks/${await bankOf(h)}/questions`, { body: QUESTION })),
    expected: [201, 200],
  },
  'intapi.create-submission-ignores-unknown-user': {
    probe: (h) => status(h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, userId: UNKNOWN } })),
    expected: [404, 201],
  },
  'intapi.update-unknown-submission-creates': {
    probe: async (h) => {
      const put = await h.call('PUT', `/submissions/${UNKNOWN}`, { body: { title: 't', completionDate: '2024-01-01T00:00:00Z' } });
      return [put.status, (await h.get(`/submissions/${UNKNOWN}`)).status];
    },
    expected: [
      [404, 404],
      [200, 200],
    ],
  },
  'intapi.create-submission-ignores-unknown-template': {
    probe: async (h) => {
      const res = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, templateId: UNKNOWN } });
      const stored = res.status === 201 ? (await h.get(`/submissions/${String(res.obj.id)}`)).obj.templateId : null;
      return [res.status, stored, await status(h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, templateId: UNKNOWN, userId: UNKNOWN } }))];
    },
    expected: [
      [404, null, 404],
      [201, UNKNOWN, 404],
    ],
  },
  'intapi.update-submission-201': {
    probe: async (h) => {
      const id = String((await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj.id);
      const put = await h.call('PUT', `/submissions/${id}`, { body: { title: 'renamed', completionDate: '2024-01-01T00:00:00Z' } });
      const read = (await h.get(`/submissions/${id}`)).obj;
      return [
        put.status,
        JSON.stringify(put.obj) === JSON.stringify(read),
        read.title,
        await status(h.call('POST', '/submissions', { body: VALID_SUBMISSION })),
      ];
    },
    expected: [
      [200, true, 'renamed', 201],
      [201, true, 'renamed', 201],
    ],
  },
  'intapi.question-under-unknown-bank-201': {
    probe: (h) => status(h.call('POST', `/question-banks/${UNKNOWN}/questions`, { body: QUESTION })),
    expected: [404, 201],
  },
  'intapi.duplicate-bank-id-accepted': {
    probe: async (h) => {
      await h.call('POST', '/question-banks', { body: { id: UNKNOWN, name: 'a' } });
      const again = await h.call('POST', '/question-banks', { body: { id: UNKNOWN, name: 'b' } });
      return [again.status, (await h.get(`/question-banks/${UNKNOWN}`)).obj.name];
    },
    expected: [
      [409, 'a'],
      [201, 'b'],
    ],
  },
  'intapi.duplicate-question-id-accepted': {
    probe: async (h) => {
      const bank = await bankOf(h);
      await h.call('POST', `/question-banks/${bank}/questions`, { body: { ...QUESTION, id: UNKNOWN } });
      return status(h.call('POST', `/question-banks/${bank}/questions`, { body: { ...QUESTION, id: UNKNOWN } }));
    },
    expected: [409, 201],
  },
  'intapi.rejected-create-stored': {
    probe: async (h) => {
      const count = async () => Number((await h.get('/submissions?_limit=1')).obj.totalItems);
      const before = await count();
      const refused = await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, title: '' } });
      return [refused.status, (await count()) - before];
    },
    expected: [
      [422, 0],
      [422, 1],
    ],
  },
  'intapi.update-not-persisted': {
    probe: async (h) => {
      const bank = await bankOf(h);
      const put = await h.call('PUT', `/question-banks/${bank}`, { body: { name: 'new' } });
      return [put.obj.name, (await h.get(`/question-banks/${bank}`)).obj.name];
    },
    expected: [
      ['new', 'new'],
      ['new', 'old'],
    ],
  },
  'intapi.update-keeps-absent-fields': {
    probe: async (h) => {
      const id = String((await h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, cost: '$1' } })).obj.id);
      return (await h.call('PUT', `/submissions/${id}`, { body: { title: 't', completionDate: '2024-01-01T00:00:00Z' } })).obj.cost;
    },
    expected: [null, '$1'],
  },
  'intapi.unknown-id-200': {
    probe: async (h) => {
      const res = await h.get(`/templates/${UNKNOWN}`);
      return [res.status, res.status === 200 ? res.obj : null];
    },
    expected: [
      [404, null],
      [200, { id: UNKNOWN, name: '', isActive: false }],
    ],
  },
  'intapi.course-resource-any-course': {
    probe: async (h) => {
      const [other] = idsOf((await h.get(`/courses/${COURSE2}/resources`)).list);
      return status(h.get(`/courses/${COURSE1}/resources/${String(other)}`));
    },
    expected: [404, 200],
  },
  'intapi.enrollment-resources-unenrolled-200': { probe: (h) => status(h.get(`/users/${USER2}/enrollments/${COURSE1}/resources`)), expected: [404, 200] },
  'intapi.submission-response-missing-vendor': {
    probe: async (h) => {
      const created = (await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj;
      const listed = itemsOf(await h.get('/submissions?_limit=1'), 'submissions')[0] ?? {};
      return ['vendor' in created, 'vendor' in listed, 'vendorAddress' in created];
    },
    expected: [
      [true, true, true],
      [false, false, true],
    ],
  },
  'intapi.null-fields-omitted': {
    probe: async (h) => 'cost' in (await h.call('POST', '/submissions', { body: VALID_SUBMISSION })).obj,
    expected: [true, false],
  },
  'intapi.question-type-as-string': {
    probe: async (h) => (await h.call('POST', `/question-banks/${await bankOf(h)}/questions`, { body: QUESTION })).obj.questionType,
    expected: [2, 'Text'],
  },
  'intapi.envelope-returned-items-off': { probe: envelopeField('/resources?_limit=5', 'returnedItems'), expected: [5, 6] },
  'intapi.envelope-limit-echo-default': { probe: envelopeField('/resources?_limit=5', 'limit'), expected: [5, 20] },
  'intapi.envelope-offset-echo-zero': { probe: envelopeField('/resources?_offset=2', 'offset'), expected: [2, 0] },
  'intapi.envelope-total-counts-page': { probe: total('/resources?_limit=5'), expected: [75, 5] },
  'intapi.filtered-total-unfiltered': { probe: total(`/resources?_limit=5&_filter=${encodeURIComponent("name eq 'lpc-none'")}`), expected: [0, 75] },
  'intapi.paging-item-offset': {
    probe: async (h) => {
      const all = idsOf(itemsOf(await h.get('/resources?_limit=1000'), 'resources'));
      return all.indexOf(idsOf(itemsOf(await h.get('/resources?_limit=10&_offset=1'), 'resources'))[0] ?? '');
    },
    expected: [10, 1],
  },
  'intapi.default-limit-10': {
    probe: async (h) => {
      const page = async (path: string) => {
        const res = await h.get(path);
        return [res.obj.returnedItems, res.obj.limit];
      };
      return [
        await page('/resources'),
        await page('/submissions'),
        await page('/templates'),
        await page('/question-banks'),
        (await h.get('/resources', { version: '1' })).list.length,
        await page('/resources?_limit=20'),
        await page('/resources?limit=20'),
      ];
    },
    expected: [
      [[20, 20], [20, 20], [20, 20], [20, 20], 20, [20, 20], [20, 20]],
      [[10, 10], [10, 10], [10, 10], [10, 10], 10, [20, 20], [20, 20]],
    ],
  },
  'intapi.limit-ignored': {
    probe: async (h) => {
      const res = await h.get('/resources?_limit=5');
      return [res.obj.returnedItems, res.obj.limit];
    },
    expected: [
      [5, 5],
      [20, 5],
    ],
  },
  'intapi.limit-max-unenforced': { probe: (h) => status(h.get('/resources?_limit=1001')), expected: [422, 200] },
  'intapi.offset-max-unenforced': { probe: (h) => status(h.get('/resources?_offset=65536')), expected: [422, 200] },
  'intapi.offset-negative-accepted': { probe: (h) => status(h.get('/resources?_offset=-1')), expected: [422, 200] },
  'intapi.list-params-invalid-accepted': { probe: (h) => status(h.get('/resources?_limit=abc')), expected: [422, 200] },
  'intapi.deprecated-params-ignored': { probe: envelopeField('/resources?limit=5', 'returnedItems'), expected: [5, 20] },
  'intapi.paging-only-list-accepts-filter': { probe: (h) => status(h.get('/question-banks?_filter=x')), expected: [422, 200] },
  'intapi.bad-filter-accepted': {
    probe: async (h) => {
      const res = await h.get(`/resources?_filter=${encodeURIComponent('name eq (')}`);
      return [res.status, (await h.get('/resources?_filter=colour%20eq%201')).status];
    },
    expected: [
      [422, 422],
      [200, 422],
    ],
  },
  'intapi.default-order-newest-first': { probe: async (h) => itemsOf(await h.get('/templates'), 'templates')[0]?.id === TEMPLATE, expected: [true, false] },
  'intapi.list-stale-after-update': {
    probe: async (h) => {
      const bank = await bankOf(h);
      await h.call('PUT', `/question-banks/${bank}`, { body: { name: 'new' } });
      const listed = itemsOf(await h.get('/question-banks?_limit=1000'), 'questionBanks').find((b) => b.id === bank);
      return [listed?.name, (await h.get(`/question-banks/${bank}`)).obj.name];
    },
    expected: [
      ['new', 'new'],
      ['old', 'new'],
    ],
  },
  'intapi.v1-list-envelope': { probe: async (h) => Array.isArray((await h.get('/resources', { version: '1' })).json), expected: [true, false] },
  'intapi.v2-list-bare-array': {
    probe: async (h) => {
      const v2 = (await h.get('/resources?_limit=5')).json;
      return [
        Array.isArray(v2) ? v2.length : 'envelope',
        Array.isArray((await h.get('/resources', { version: '1' })).json),
        Array.isArray((await h.get(`/courses/${COURSE1}/resources`)).json),
        Array.isArray((await h.get('/submissions')).json),
      ];
    },
    expected: [
      ['envelope', true, true, false],
      [5, true, true, false],
    ],
  },
  'intapi.v1-ignores-filter': {
    probe: async (h) => [(await h.get(q("name eq 'nothing'"), { version: '1' })).list.length, (await h.get(q("name eq 'nothing'"))).obj.totalItems],
    expected: [
      [0, 0],
      [75, 0],
    ],
  },
  'intapi.filter-eq-case-insensitive': {
    probe: async (h) => [
      (await h.get(`/templates?_filter=${encodeURIComponent("name eq 'EXTERNAL COURSE'")}`)).obj.totalItems,
      (await h.get(q("name ne 'ZETA NOTES'"))).obj.totalItems,
    ],
    expected: [
      [0, 75],
      [1, 75],
    ],
  },
  'intapi.filter-ne-drops-null': {
    probe: async (h) => [await total(q("file ne 'nothing'"))(h), await total(q('file ne null'))(h), await total(q('file eq null'))(h)],
    expected: [
      [75, 52, 23],
      [52, 52, 23],
    ],
  },
  'intapi.filter-gt-as-ge': { probe: (h) => names(h, q("name gt 'zeta notes'")), expected: [['Ångström Units'], ['Ångström Units', 'zeta notes']] },
  // No name starts with 'Safety'; 11 contain it: under the fault startswith selects exactly those.
  'intapi.filter-startswith-as-contains': {
    probe: async (h) => [await total(q("startswith(name,'Safety')"))(h), await total(q("substringof('Safety',name)"))(h)],
    expected: [
      [0, 11],
      [11, 11],
    ],
  },
  'intapi.filter-not-ignored': { probe: total(q('not (file eq null)')), expected: [52, 23] },
  'intapi.filter-or-as-and': { probe: total(q("name eq 'zeta notes' or name eq 'Ångström Units'")), expected: [2, 0] },
  'intapi.filter-unknown-field-accepted': { probe: (h) => status(h.get(q('colour eq null'))), expected: [422, 200] },
  'intapi.field-names-case-sensitive': {
    probe: async (h) => [await status(h.get('/resources?_sort=NAME')), await status(h.get(q("Name eq 'x'"))), await status(h.get('/resources?_sort=name'))],
    expected: [
      [200, 200, 200],
      [422, 422, 200],
    ],
  },
  'intapi.sort-ignored': {
    probe: async (h) => {
      const inCreationOrder = async (path: string, key: string, sort: string) =>
        JSON.stringify(idsOf(itemsOf(await h.get(`${path}?_limit=1000&_sort=${sort}`), key))) ===
        JSON.stringify(idsOf(itemsOf(await h.get(`${path}?_limit=1000`), key)));
      return [
        await inCreationOrder('/resources', 'resources', '-name'),
        await inCreationOrder('/resources', 'resources', 'name'),
        await inCreationOrder('/templates', 'templates', 'name,-isActive'),
        await inCreationOrder('/submissions', 'submissions', '-completionDate'),
        (await h.get('/resources?_sort=colour')).status,
        (await h.get('/question-banks?_sort=name')).status,
      ];
    },
    expected: [
      [false, false, false, false, 422, 422],
      [true, true, true, true, 422, 422],
    ],
  },
  'intapi.sort-desc-ignored': {
    probe: async (h) => (await names(h, '/resources?_limit=1000&_sort=-name'))[0],
    // Descending, the last name in ascending order comes first; ignored, the ascending first does.
    expected: ['Ångström Units', '123 Numbers'],
  },
  'intapi.sort-multi-ignores-second-key': {
    probe: async (h) => {
      const nullFiles = itemsOf(await h.get('/resources?_limit=1000&_sort=file,-name'), 'resources').filter((r: JsonRecord) => r.file === null);
      const got = nullFiles.map((r) => String(r.name));
      return JSON.stringify(got) === JSON.stringify([...got].sort().reverse());
    },
    expected: [true, false],
  },
  'intapi.sorted-page-restarts-ties': {
    // The resources without a file tie on `file`: the second page of 1 is the second record of a page of 2.
    probe: async (h) => {
      const list = (limit: number, offset: number) =>
        h.get(`/resources?_filter=${encodeURIComponent('id ne null')}&_sort=file&_limit=${limit}&_offset=${offset}`);
      return itemsOf(await list(1, 1), 'resources')[0]?.id === itemsOf(await list(2, 0), 'resources')[1]?.id;
    },
    expected: [true, false],
  },
  'intapi.unfiltered-sorted-page-restarts-ties': {
    // The same ties as above without a filter: the second page of 1 is the second record of a page of 2.
    probe: async (h) => {
      const list = (limit: number, offset: number) => h.get(`/resources?_sort=file&_limit=${limit}&_offset=${offset}`);
      return itemsOf(await list(1, 1), 'resources')[0]?.id === itemsOf(await list(2, 0), 'resources')[1]?.id;
    },
    expected: [true, false],
  },
  'intapi.filtered-page-ignores-limit': {
    probe: async (h) => itemsOf(await h.get(`/resources?_filter=${encodeURIComponent('id ne null')}&_limit=1`), 'resources').length === 1,
    expected: [true, false],
  },
  'intapi.sorted-page-past-end-repeats-last': {
    probe: async (h) => itemsOf(await h.get('/resources?_sort=name&_limit=1000&_offset=3'), 'resources').length === 0,
    expected: [true, false],
  },
  'intapi.filter-range-last-per-field': {
    // No name is at least 'A' and below 'A'; the last range alone holds '123 Numbers'.
    probe: async (h) => itemsOf(await h.get(`/resources?_filter=${encodeURIComponent("name ge 'A' and name lt 'A'")}`), 'resources').length > 0,
    expected: [false, true],
  },
  'intapi.sort-nulls-last': { probe: async (h) => itemsOf(await h.get('/resources?_sort=file'), 'resources')[0]?.file === null, expected: [true, false] },
  ...USERS_SPOTS,
  // Course evaluations, countries and provinces
  'intapi.evaluations-on-v1': { probe: (h) => status(h.get(`/courses/${COURSE1}/evaluation-questions`, { version: '1' })), expected: [404, 200] },
  'intapi.evaluation-answers-every-course': {
    probe: async (h) => new Set(itemsOf(await h.get(`/courses/${COURSE1}/evaluation-answers?_limit=1000`), 'evaluationAnswers').map((a) => a.courseId)).size,
    expected: [1, 3],
  },
  'intapi.evaluation-question-get-neighbour': {
    probe: async (h) => {
      const first = itemsOf(await h.get(`/courses/${COURSE1}/evaluation-questions`), 'evaluationQuestions')[0];
      return (await h.get(`/courses/${COURSE1}/evaluation-questions/${String(first?.id)}`)).obj.id === first?.id;
    },
    expected: [true, false],
  },
  'intapi.province-townships': { probe: async (h) => 'townships' in (await h.get(`/provinces/${PROVINCE_CA_ON}`)).obj, expected: [false, true] },
  'intapi.province-code-without-country': { probe: async (h) => (await h.get(`/provinces/${PROVINCE_CA_ON}`)).obj.code, expected: ['CA-ON', 'ON'] },
  'intapi.provinces-of-next-country': {
    probe: async (h) => (await h.get(`/provinces?countryId=${COUNTRY_CA}`)).list.some((p) => (p as JsonRecord).code === 'CA-ON'),
    expected: [true, false],
  },
  'intapi.province-get-neighbour': { probe: async (h) => (await h.get(`/provinces/${PROVINCE_CA_ON}`)).obj.id === PROVINCE_CA_ON, expected: [true, false] },
  'intapi.provinces-unknown-country-200': { probe: (h) => status(h.get(`/provinces?countryId=${UNKNOWN}`)), expected: [404, 200] },
  // OAuth 2.0 authorization-code flow
  'intapi.oauth-code-reusable': {
    probe: async (h) => {
      const tokens = await oauthTokens(h.base);
      return (await exchange(h.base, tokens.code, tokens.verifier)).status;
    },
    expected: [400, 200],
  },
  'intapi.oauth-any-redirect-uri': {
    probe: async (h) => (await fetch(authorizeRequest(h.base, 'https://elsewhere.invalid/cb').url, { redirect: 'manual' })).status,
    expected: [400, 303],
  },
  'intapi.oauth-no-refresh-token': { probe: async (h) => 'refresh_token' in (await oauthTokens(h.base)).body, expected: [true, false] },
  'intapi.oauth-access-token-8h': { probe: async (h) => (await oauthTokens(h.base)).body.expires_in, expected: [14400, 28800] },
  'intapi.oauth-token-not-accepted': {
    probe: async (h) => status(h.get('/resources', { token: String((await oauthTokens(h.base)).body.access_token) })),
    expected: [200, 401],
  },
  // Groups, enrollments and sessions
  'intapi.groups-on-v1': { probe: (h) => status(h.call('POST', '/groups', { version: '1', body: { name: 'g', groupType: 'Manual' } })), expected: [404, 201] },
  'intapi.automatic-group-assignable': {
    probe: (h) => status(h.call('POST', `/groups/${AUTOMATIC_GROUP}/users/assign`, { body: { userIds: [USER2] } })),
    expected: [409, 200],
  },
  'intapi.group-assignment-not-stored': {
    probe: async (h) => {
      await h.call('POST', `/groups/${MANUAL_GROUP}/users/assign`, { body: { userIds: [USER5] } });
      return (await h.get(`/groups/${MANUAL_GROUP}`)).obj.userIds;
    },
    expected: [
      [USER2, USER3, USER5],
      [USER2, USER3],
    ],
  },
  'intapi.group-update-not-stored': {
    probe: async (h) => {
      await h.call('PUT', `/groups/${MANUAL_GROUP}`, { body: { name: 'Renamed' } });
      return (await h.get(`/groups/${MANUAL_GROUP}`)).obj.name;
    },
    expected: ['Renamed', 'Sales Team'],
  },
  'intapi.group-unassignment-not-stored': {
    probe: async (h) => {
      await h.call('POST', `/groups/${MANUAL_GROUP}/users/unassign`, { body: { userIds: [USER2] } });
      return (await h.get(`/groups/${MANUAL_GROUP}`)).obj.userIds;
    },
    expected: [[USER3], [USER2, USER3]],
  },
  'intapi.multi-session-replaces': {
    probe: async (h) => {
      await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[0]}`);
      return (await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[1]}`)).obj.sessionIds;
    },
    expected: [[SESSIONS[0], SESSIONS[1]], [SESSIONS[1]]],
  },
  'intapi.cancel-session-ignored': {
    probe: async (h) => {
      await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[0]}`);
      return (await h.call('POST', `/users/${USER4}/enrollments/${COURSE4}/session/${SESSIONS[0]}?cancelSession=true`)).obj.sessionIds;
    },
    expected: [[], [SESSIONS[0]]],
  },
  'intapi.deleted-course-enrollments-listed': {
    probe: async (h) => itemsOf(await h.get(`/users/${ADMIN}/enrollments`), 'enrollments').some((e) => e.courseId === DELETED_COURSE),
    expected: [false, true],
  },
  'intapi.negative-credits-applied': {
    probe: async (h) => (await h.call('POST', `/users/${USER5}/enrollments`, { body: { courseId: COURSE1, credits: -3 } })).obj.credits,
    expected: [null, -3],
  },
  'intapi.time-spent-ticks-accepted': {
    probe: (h) => status(h.call('POST', `/users/${USER5}/enrollments`, { body: { courseId: COURSE1, timeSpentTicks: 10 } })),
    expected: [422, 201],
  },
  'intapi.re-enroll-no-email': { probe: (h) => reEnrollMails(h), expected: [1, 0] },
  'intapi.re-enroll-two-emails': { probe: (h) => reEnrollMails(h), expected: [1, 2] },
  'intapi.enrollment-status-as-label': {
    probe: async (h) => typeof itemsOf(await h.get(`/users/${ADMIN}/enrollments`), 'enrollments')[0]?.status,
    expected: ['number', 'string'],
  },
};

describe('the catalogue', () => {
  test('lists named and generated faults, each with a description', () => {
    const all = listIntapiFaults();
    expect(all).toEqual(Object.keys(INTAPI_FAULTS));
    expect(new Set(all).size).toBe(all.length);
    for (const name of Object.keys(SPOTS)) expect(all).toContain(name);
    expect(all.filter((n) => n.startsWith('intapi.skip-rule:')).length).toBeGreaterThan(100);
    expect(all.filter((n) => n.startsWith('intapi.exclusive-bound:')).length).toBeGreaterThan(20);
    for (const info of Object.values(INTAPI_FAULTS)) expect(info.description.length).toBeGreaterThan(10);
  });

  test('every fault constructs a server', () => {
    for (const name of listIntapiFaults()) expect(() => createReferenceServer({ faults: [name] })).not.toThrow();
    expect(() => createReferenceServer({ faults: listIntapiFaults() })).not.toThrow();
  });

  test('an unknown fault name throws, naming the families; an unknown one of a family lists its known ones', () => {
    expect(() => createReferenceServer({ faults: ['no-such-fault'] })).toThrow(
      /Unknown fault: no-such-fault\. A fault's name starts with its family: intapi\., scim\./,
    );
    expect(() => createReferenceServer({ faults: ['intapi.no-such-fault'] })).toThrow(
      /Unknown fault: intapi\.no-such-fault\. Known faults: intapi.accept-missing-api-key, .*intapi\.skip-rule:<operation>\.<field>\.<kind>/,
    );
    expect(() => createReferenceServer({ faults: ['intapi.skip-rule:submissions.create.title.nope'] })).toThrow(/Unknown fault/);
  });
});

describe.each(Object.entries(SPOTS))('%s', (fault, { probe, expected }) => {
  test('changes the behaviour it names', async () => {
    const [normal, faulty] = await Promise.all([startServer(), startServer({ faults: [fault] })]);
    try {
      expect(await probe(normal)).toEqual(expected[0]);
      expect(await probe(faulty)).toEqual(expected[1]);
    } finally {
      await Promise.all([normal.close(), faulty.close()]);
    }
  });
});

describe('parametric faults over HTTP', () => {
  const create = (h: Harness, patch: Record<string, unknown>) => h.call('POST', '/submissions', { body: { ...VALID_SUBMISSION, ...patch } });

  test('intapi.skip-rule:submissions.create.title.maxLength accepts and stores a 256-character title', async () => {
    const h = await startServer({ faults: ['intapi.skip-rule:submissions.create.title.maxLength'] });
    try {
      const res = await create(h, { title: 't'.repeat(256) });
      expect(res.status).toBe(201);
      expect((await h.get(`/submissions/${String(res.obj.id)}`)).obj.title).toHaveLength(256);
      expect((await create(h, { title: '' })).status).toBe(422);
    } finally {
      await h.close();
    }
  });

  test('intapi.skip-rule:questions.create.questionOptions[].name.required accepts an option without name', async () => {
    const h = await startServer({ faults: ['intapi.skip-rule:questions.create.questionOptions[].name.required'] });
    try {
      const bank = String((await h.call('POST', '/question-banks', { body: { name: 'b' } })).obj.id);
      const res = await h.call('POST', `/question-banks/${bank}/questions`, { body: { ...QUESTION, questionOptions: [{}] } });
      expect(res.status).toBe(201);
      expect(res.obj.questionOptions).toEqual([expect.objectContaining({ name: null, isCorrect: false, order: 0 })]);
    } finally {
      await h.close();
    }
  });

  test('intapi.exclusive-bound:submissions.create.title refuses 255 and 1 characters, accepts 254 and 2', async () => {
    const h = await startServer({ faults: ['intapi.exclusive-bound:submissions.create.title'] });
    try {
      expect((await create(h, { title: 't'.repeat(255) })).status).toBe(422);
      expect((await create(h, { title: 't' })).status).toBe(422);
      expect((await create(h, { title: 't'.repeat(254) })).status).toBe(201);
      expect((await create(h, { title: 'tt' })).status).toBe(201);
    } finally {
      await h.close();
    }
  });

  test('intapi.exclusive-bound:questionBanks.create.name refuses the empty name', async () => {
    const h = await startServer({ faults: ['intapi.exclusive-bound:questionBanks.create.name'] });
    try {
      expect((await h.call('POST', '/question-banks', { body: { name: '' } })).status).toBe(422);
      expect((await h.call('POST', '/question-banks', { body: { name: 'x' } })).status).toBe(201);
    } finally {
      await h.close();
    }
  });
});

describe('with every bounds rule skipped, values of any type are stored and lists still answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startServer({ faults: listIntapiFaults().filter((n) => n.startsWith('intapi.skip-rule:')) });
  });
  afterAll(() => h.close());

  const WEIRD = [42, 'text', true, [1, { a: 2 }], { nested: { deep: [null] } }, -1e308, ''];

  test('creates and updates store what came', async () => {
    for (const value of WEIRD) {
      const body = { ...VALID_SUBMISSION, ...Object.fromEntries(SUBMISSION_FIELDS.map((f) => [f, value])) };
      const res = await h.call('POST', '/submissions', { body });
      expect(res.status).toBe(201);
      expect(res.obj.title).toEqual(value);
      const put = await h.call('PUT', `/submissions/${String(res.obj.id)}`, { body: { ...body, userId: 5, templateId: 'x', id: 'y' } });
      expect(put.status).toBe(200);
    }
    const bank = await h.call('POST', '/question-banks', { body: { id: 42, name: [1] } });
    expect(bank.status).toBe(201);
    const questions = await h.call('POST', `/question-banks/${String(bank.obj.id)}/questions`, {
      body: { questionType: 7, questionOptions: ['x', { id: 5, isCorrect: 'no' }] },
    });
    expect(questions.status).toBe(201);
    expect(questions.obj.questionType).toBe(7);
  });

  test.each(SUBMISSION_FIELDS)('_sort and _filter on %s answer without a 5xx', async (field) => {
    for (const sort of [field, `-${field}`]) expect((await h.get(`/submissions?_limit=1000&_sort=${sort}`)).status).toBe(200);
    for (const filter of [`${field} eq null`, `${field} ne null`, `${field} gt 0`, `startswith(${field},'t')`, `tolower(${field}) eq 'text'`]) {
      expect((await h.get(`/submissions?_filter=${encodeURIComponent(filter)}`)).status).toBeLessThan(500);
    }
  });
});
