import { validationFailed } from '../../http/errors.js';
import type { JsonObject } from '../../rules/json.js';
import { isGuid } from '../../rules/guid.js';
import { type IntapiDeps, type IntapiOperation, V1_AND_V2 } from '../context.js';
import { guidParams, NIL_GUID, unknownId } from '../requests.js';
import { type Country, geography, type Province } from './data.js';

const serializeCountry = (c: Country): JsonObject => ({ id: c.id, code: c.code, alpha3: c.alpha3, name: c.name });

/**
 * Countries and provinces, versions 1 and 2 (public-facts "Integration API paths": `GET /countries`,
 * `GET /provinces?countryId=...`, `GET /provinces/{id}`). Lists answer bare arrays and take no list
 * parameters; `countryId` is required (missing or not a GUID: 422 naming it; unknown: 404).
 * Provinces carry no `townships` (release 5.128.0).
 */
export function provinceOperations(deps: IntapiDeps): IntapiOperation[] {
  const { behaviour } = deps;
  const { errors, provinces: rules } = behaviour;
  const geo = geography(deps.store.seedIdOf);

  const serializeProvince = (p: Province): JsonObject => ({
    id: p.id,
    countryId: p.countryId,
    code: rules.code === 'iso' ? p.code : p.code.slice(3),
    name: p.name,
    ...(rules.townships === 'present' ? { townships: [] } : {}),
  });

  return [
    {
      id: 'countries.list',
      method: 'GET',
      path: '/countries',
      versions: V1_AND_V2,
      auth: 'token',
      handle: () => ({ status: 200, body: geo.countries.map(serializeCountry) }),
    },
    {
      id: 'provinces.list',
      method: 'GET',
      path: '/provinces',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const given = call.query.countryId;
        if (typeof given !== 'string' || !isGuid(given)) {
          throw validationFailed([given === undefined ? 'countryId: is required' : 'countryId: Invalid format provided for countryId']);
        }
        const countryId = given.toLowerCase();
        if (!geo.countryById.has(countryId)) {
          if (rules.unknownCountry === 'empty') return { status: 200, body: [] };
          throw unknownId(`Country with identifier ${given} does not exist.`, () => []);
        }
        let listed = countryId;
        if (rules.countryFilter === 'next-country') {
          const index = geo.countries.findIndex((c) => c.id === countryId);
          listed = geo.countries[(index + 1) % geo.countries.length]?.id ?? countryId;
        }
        return { status: 200, body: (geo.provincesByCountry.get(listed) ?? []).map(serializeProvince) };
      },
    },
    {
      id: 'provinces.get',
      method: 'GET',
      path: '/provinces/:id',
      versions: V1_AND_V2,
      auth: 'token',
      handle: (call) => {
        const { id } = guidParams(call, ['id'], errors);
        const found = geo.provinceById.get(id.toLowerCase());
        if (found === undefined)
          throw unknownId(`Province with identifier ${id} does not exist.`, () => serializeProvince({ id, countryId: NIL_GUID, code: '', name: '' }));
        let answered = found;
        if (rules.get === 'neighbour') {
          const index = geo.provinces.indexOf(found);
          answered = geo.provinces[(index + 1) % geo.provinces.length] ?? found;
        }
        return { status: 200, body: serializeProvince(answered) };
      },
    },
  ];
}
