// Countries and provinces, versions 1 and 2 (public-facts: `GET /countries`, `GET /provinces?countryId=...`,
// `GET /provinces/{id}`). Provinces are ISO 3166-2 subdivisions and carry no townships (release
// 5.128.0, spec#versioning). The record shapes are the reference server's choice (docs/decisions/intapi/evaluations-countries-oauth.md
// "Countries and provinces"), so the checks on them are PROFILE level: a country `{id, code}` with
// the ISO 3166-1 alpha-2 `code`, a province `{id, countryId, code}` with the ISO 3166-2 `code`.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { type Json, unknownId } from '../_harness/records.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { statusChecks, type StatusRow } from '../_harness/statuses.js';

const FACTS = 'public-facts#integration-api-paths-seen-in-public-clients-the-v1-surface-which-v2-keeps';
const RELEASE = 'spec#versioning';
/** An ISO 3166-2 code: the country's alpha-2 code, a dash, 1 to 3 letters or digits. */
const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
/** Countries tried first for a country with provinces (then the list's order, or the draws). */
const LIKELY = ['CA', 'US', 'FR', 'DE'];

type Version = '1' | '2';

function arrayOf(res: ApiResponse, what: string): Json[] {
  expectStatus(res, 200, what);
  if (!Array.isArray(res.json)) fail('a JSON array', describeResponse(res), res);
  return res.json as Json[];
}

/** The LIKELY countries the list holds, in LIKELY's order. */
const likelyOf = (all: readonly Json[]): Json[] => LIKELY.flatMap((code) => all.filter((c) => c.code === code));

async function countries(t: CheckContext, version: Version): Promise<Json[]> {
  const list = arrayOf(await t.http.send({ op: 'countries.list', version }), 'listing the countries');
  t.requireData(list.length > 0, 'the target lists no countries');
  return list;
}

async function provincesOf(t: CheckContext, version: Version, countryId: string): Promise<{ res: ApiResponse; provinces: Json[] }> {
  const res = await t.http.send({ op: 'provinces.list', version, query: { countryId } });
  return { res, provinces: arrayOf(res, `listing the provinces of country ${countryId}`) };
}

/** A country with provinces: the likely ones first, then the first ten of the list. */
async function countryWithProvinces(t: CheckContext, version: Version): Promise<{ country: Json; provinces: Json[] }> {
  const all = await countries(t, version);
  const ordered = [...likelyOf(all), ...all.slice(0, 10)];
  for (const country of ordered) {
    const { provinces } = await provincesOf(t, version, String(country.id));
    if (provinces.length > 0) return { country, provinces };
  }
  return t.skip('none of the countries tried has provinces');
}

function rows(version: Version): StatusRow[] {
  const v = { version } as const;
  return [
    {
      id: `intapi.v${version}.countries.list.status-200`,
      level: 'PROFILE',
      spec: FACTS,
      title: `List countries (v${version}) answers 200`,
      status: 200,
      request: () => ({ op: 'countries.list', ...v }),
    },
    {
      id: `intapi.v${version}.provinces.list.status-200`,
      level: 'PROFILE',
      spec: FACTS,
      title: `List the provinces of an existing country (v${version}) answers 200`,
      status: 200,
      request: async (t) => ({ op: 'provinces.list', ...v, query: { countryId: String((await countries(t, version))[0]?.id) } }),
    },
    {
      id: `intapi.v${version}.provinces.list.unknown-country-404`,
      level: 'PROFILE',
      spec: FACTS,
      title: `List the provinces of an unknown countryId (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'provinces.list', ...v, query: { countryId: unknownId(t) } }),
    },
    {
      id: `intapi.v${version}.provinces.get.status-200`,
      level: 'PROFILE',
      spec: FACTS,
      title: `Get province (v${version}) of an existing id answers 200`,
      status: 200,
      request: async (t) => ({ op: 'provinces.get', ...v, params: { id: String((await countryWithProvinces(t, version)).provinces[0]?.id) } }),
    },
    {
      id: `intapi.v${version}.provinces.get.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get province (v${version}) of an unknown id answers 404`,
      status: 404,
      request: (t) => ({ op: 'provinces.get', ...v, params: { id: unknownId(t) } }),
    },
  ];
}

function propertyChecks(version: Version): void {
  const p = `intapi.v${version}.provinces`;

  requirement(
    {
      id: `${p}.list.codes-match-country`,
      level: 'PROFILE',
      spec: RELEASE,
      title: `Every province of a country (v${version}) has an ISO 3166-2 code whose prefix is the country's alpha-2 code`,
    },
    async (t) => {
      const all = await countries(t, version);
      // The countries likeliest to have provinces run first. Drawn uniformly, over a list where many
      // countries have none (a degenerate run), a few runs could all miss, and the check would come
      // out not exercised against a target whose provinces are right, by the seed's chance alone.
      await t.property(
        fc.constantFrom(...all),
        async (country) => {
          const { res, provinces } = await provincesOf(t, version, String(country.id));
          if (provinces.length === 0) return t.degenerate('a country without provinces');
          t.outcome('country-with-provinces');
          for (const province of provinces) {
            const code = String(province.code);
            if (!ISO_3166_2.test(code))
              fail(`an ISO 3166-2 code (${ISO_3166_2.source})`, `province ${String(province.id)} code ${JSON.stringify(province.code)}`, res);
            if (code.slice(0, 2) !== country.code) fail(`codes of country ${String(country.code)} (${String(country.id)})`, `province code ${code}`, res);
          }
        },
        { examples: likelyOf(all) },
      );
    },
  );

  requirement(
    {
      id: `${p}.get.agrees-with-list`,
      level: 'PROFILE',
      spec: FACTS,
      title: `A province got by its id (v${version}) equals its item in its country's province list`,
    },
    async (t) => {
      const { country, provinces } = await countryWithProvinces(t, version);
      await t.property(fc.constantFrom(...provinces), async (listed) => {
        const res = await t.http.send({ op: 'provinces.get', version, params: { id: String(listed.id) } });
        expectStatus(res, 200, `getting province ${String(listed.id)} of country ${String(country.code)}`);
        t.outcome('province-got');
        if (!isDeepStrictEqual(res.json, listed)) fail(`the listed province ${JSON.stringify(listed)}`, describeResponse(res), res);
      });
    },
  );

  requirement(
    { id: `${p}.no-townships`, level: 'MUST', spec: RELEASE, title: `Province records (v${version}, list and get) carry no townships` },
    async (t) => {
      const { provinces } = await countryWithProvinces(t, version);
      const res = await t.http.send({ op: 'provinces.get', version, params: { id: String(provinces[0]?.id) } });
      expectStatus(res, 200, 'getting a province');
      for (const [province, where] of [...provinces.map((pr) => [pr, 'in the list'] as const), [res.json as Json, 'from get'] as const]) {
        if (typeof province === 'object' && province !== null && 'townships' in province) {
          fail('no townships field (release 5.128.0)', `province ${String(province.id)} ${where} carries townships`, res);
        }
      }
    },
  );
}

for (const version of ['1', '2'] as const) {
  statusChecks(rows(version));
  propertyChecks(version);
}
