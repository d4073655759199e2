// The version header (spec#versioning): v1 and v2 answers of the same list agree on the items and
// differ in shape exactly as documented; the profile declares the rest.
import fc from 'fast-check';
import { pageWithin } from './_harness/arbitraries.js';
import { describeResponse, expectStatus, fail } from './_harness/failure.js';
import { survey } from './_harness/lists.js';
import { idsOf } from './_harness/records.js';
import { requirement } from './_harness/requirement.js';
import { statusChecks } from './_harness/statuses.js';

const SPEC = 'spec#versioning';
const ids = (items: unknown): string => (Array.isArray(items) ? idsOf(items).join() : '(not an array)');
const isArray = (items: unknown): items is unknown[] => Array.isArray(items);

requirement(
  { id: 'intapi.v1.resources.list.bare-array', level: 'MUST', spec: SPEC, title: 'List resources with x-api-version 1 answers a bare array' },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: '1' });
    expectStatus(res, 200);
    if (!Array.isArray(res.json)) fail('a bare JSON array', describeResponse(res), res);
  },
);

requirement(
  {
    id: 'intapi.v2.resources.list.envelope',
    level: 'MUST',
    spec: SPEC,
    title: 'List resources with x-api-version 2 answers the paged envelope with key resources',
  },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: '2' });
    expectStatus(res, 200);
    const body = res.json as { resources?: unknown } | undefined;
    if (Array.isArray(res.json) || !Array.isArray(body?.resources)) fail('an envelope with the array resources', describeResponse(res), res);
  },
);

requirement(
  {
    id: 'intapi.versions.resources.list.same-items',
    level: 'MUST',
    spec: SPEC,
    title: 'List resources answers the same items in v1 and v2 for the same list parameters',
  },
  async (t) => {
    // Pages drawn among the collection's pages (read first), so that the lists compared hold items.
    // (A large collection is not read whole: its size is where its pages end, lists.ts survey.)
    const { size } = await survey(t, { label: 'List resources (v1)', op: 'resources.list', version: '1' });
    t.requireData(size >= 2, `List resources has ${size} items; pages of items need at least 2`);
    const query = fc
      .tuple(pageWithin(size, { maxLimit: 50, maxOffset: t.profile.expectations.lists.maxOffset }), fc.constantFrom(undefined, 'name', '-name', 'id'))
      .map(([{ limit, offset }, sort]) => ({ _limit: limit, _offset: offset, _sort: sort }));
    await t.property(query, async (q) => {
      const v1 = await t.http.send({ op: 'resources.list', version: '1', query: q });
      const v2 = await t.http.send({ op: 'resources.list', version: '2', query: q });
      expectStatus(v1, 200);
      expectStatus(v2, 200);
      const v2items = (v2.json as { resources?: unknown } | undefined)?.resources;
      if (!isArray(v1.json)) fail('a bare array in v1', describeResponse(v1), v1);
      if (!isArray(v2items)) fail('an envelope with resources in v2', describeResponse(v2), v2);
      if (v1.json.length === 0 && v2items.length === 0) t.degenerate('two empty lists');
      else t.outcome(q._sort === undefined ? 'same-items-default-order' : 'same-items-sorted');
      if (ids(v1.json) !== ids(v2items)) fail(`the v1 items (${ids(v1.json).slice(0, 80)})`, `v2 items ${ids(v2items).slice(0, 80)}`, v2);
    });
  },
);

requirement(
  {
    id: 'intapi.versions.missing-header',
    level: 'PROFILE',
    spec: 'public-facts#version-header',
    title: "A request without x-api-version behaves as the profile's version",
  },
  async (t) => {
    const res = await t.http.send({ op: 'resources.list', version: null });
    expectStatus(res, 200);
    const asV1 = Array.isArray(res.json);
    if (asV1 !== (t.profile.expectations.versioning.missingHeader === 1)) {
      fail(
        `version ${t.profile.expectations.versioning.missingHeader} behaviour`,
        `version ${asV1 ? 1 : 2} behaviour: ${describeResponse(res).slice(0, 80)}`,
        res,
      );
    }
  },
);

statusChecks([
  {
    id: 'intapi.versions.unsupported-value',
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "A request with x-api-version 3 answers the profile's status",
    status: (t) => t.profile.expectations.versioning.unsupportedStatus,
    request: () => ({ op: 'resources.list', version: '3' }),
  },
  {
    id: 'intapi.versions.v2-only-with-v1',
    level: 'PROFILE',
    spec: 'spec#versioning',
    title: "A version-2-only operation called with x-api-version 1 answers the profile's status",
    status: (t) => t.profile.expectations.versioning.v2OnlyWithV1Status,
    request: () => ({ op: 'submissions.list', version: '1' }),
  },
]);
