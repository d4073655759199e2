import { iso31661, iso31662 } from 'iso-3166';
import { FIXED_IDS, type SeedIdOf } from '../../rules/ids.js';

/**
 * Countries and provinces from a maintained source, not a hand-typed list: the npm package
 * `iso-3166` (wooorm, MIT; pinned exactly in package.json), whose `iso31661` lists the ISO 3166-1
 * countries and `iso31662` the ISO 3166-2 subdivisions. Provinces are those subdivisions and carry
 * no townships (release 5.128.0).
 *
 * Shapes (PROFILE level; the specification shows none, public-facts names only the paths):
 * country `{id, code, alpha3, name}` (`code` the ISO 3166-1 alpha-2 code), province
 * `{id, countryId, code, name}` (`code` the ISO 3166-2 code, `CA-ON`). Ids are GUIDs derived from
 * the codes, so they are stable across runs and releases of the data: a country
 * `00000000-0000-4000-8000-c0000000XXXX`, a province `00000000-0000-4000-8000-b0XXXXXXXXXX`, where
 * the X are the hex codes of the code's characters (without the dash, right-padded with 00).
 */
export interface Country {
  readonly id: string;
  readonly code: string;
  readonly alpha3: string;
  readonly name: string;
}

export interface Province {
  readonly id: string;
  readonly countryId: string;
  readonly code: string;
  readonly name: string;
}

const hex = (text: string, bytes: number): string =>
  [...text]
    .map((c) => c.charCodeAt(0).toString(16).padStart(2, '0'))
    .join('')
    .padEnd(bytes * 2, '0');

const fixedCountryIdOf = (alpha2: string): string => `00000000-0000-4000-8000-c0000000${hex(alpha2, 2)}`;
const fixedProvinceIdOf = (code: string): string => `00000000-0000-4000-8000-b0${hex(code.replace('-', ''), 5)}`;

export interface Geography {
  readonly countries: readonly Country[];
  /** Provinces in the data's order (grouped by country). */
  readonly provinces: readonly Province[];
  readonly countryById: ReadonlyMap<string, Country>;
  readonly provincesByCountry: ReadonlyMap<string, readonly Province[]>;
  readonly provinceById: ReadonlyMap<string, Province>;
}

const built = new WeakMap<SeedIdOf, Geography>();

/** The countries and provinces, built once per process for each way of giving ids (`idOf`: their
 * fixed ids, or ids derived from an id seed: rules/ids.ts seedIdOf). */
export function geography(idOf: SeedIdOf = FIXED_IDS): Geography {
  const known = built.get(idOf);
  if (known !== undefined) return known;
  const countryIdOf = (alpha2: string): string => idOf(fixedCountryIdOf(alpha2));
  const provinceIdOf = (code: string): string => idOf(fixedProvinceIdOf(code));
  const countries = iso31661.map((c) => ({ id: countryIdOf(c.alpha2), code: c.alpha2, alpha3: c.alpha3, name: c.name }));
  const countryById = new Map(countries.map((c) => [c.id, c]));
  // A subdivision's country is the first two letters of its code (its `parent` may be another subdivision).
  const provinces = iso31662
    .map((s) => ({ id: provinceIdOf(s.code), countryId: countryIdOf(s.code.slice(0, 2)), code: s.code, name: s.name }))
    .filter((p) => countryById.has(p.countryId));
  const provincesByCountry = new Map<string, Province[]>();
  for (const p of provinces) provincesByCountry.set(p.countryId, [...(provincesByCountry.get(p.countryId) ?? []), p]);
  const geo = { countries, provinces, countryById, provincesByCountry, provinceById: new Map(provinces.map((p) => [p.id, p])) };
  built.set(idOf, geo);
  return geo;
}
