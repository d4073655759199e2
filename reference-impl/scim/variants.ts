import type { ScimBehaviour } from './behaviour.js';

/**
 * Variants of the SCIM reference server: legitimate configurations, not faults. Each makes the
 * choices RFC 7643/7644 leave to a service provider the way one kind of real server makes them, so
 * that the suite can be proven on it (the positive controls, tests/controls/positive.test.ts: every
 * SCIM check passes against each variant with the profile that declares it, fixtures/profiles/scim-*.yaml).
 * A variant patches entries of ScimBehaviour, as a fault does; faults still apply on top of it.
 * To add one: a new entry here (and, when a choice is not yet in ScimBehaviour, that entry there and
 * the code that reads it), its profile under fixtures/profiles/, and its line in the README.
 */
interface ScimVariant {
  readonly description: string;
  /** The profile that declares its choices (fixtures/profiles/<profile>.yaml). */
  readonly profile: string;
  readonly apply: (b: ScimBehaviour) => void;
}

/** The full-featured server's choices, which rfc-letter builds on. */
function fullFeatured(b: ScimBehaviour): void {
  Object.assign(b.endpoints, { discovery: 'served', search: 'served', me: 'served' });
  b.paging.defaultCount = 50;
  b.etag.supported = true;
  b.bulk.supported = true;
  // A general SCIM server, not one meant for an identity provider: booleans are JSON booleans only
  // (RFC 7643 §2.3.2), so "True" and "False" are refused 400 invalidValue.
  b.idp.booleanStrings = 'rejected';
}

const VARIANTS = {
  'idp-minimal': {
    description:
      'A small server built for identity providers: filters of eq joined by and on userName, externalId, displayName and active (400 invalidFilter otherwise); no sorting; ' +
      'a required email unique among users (409 uniqueness); /Schemas lists only a core User (userName, name, displayName, emails, active) and other attributes are refused; ' +
      'a default and maximum page of 100; itemsPerPage is the count in force; PATCH answers 204 (200 with attributes); timestamps in whole seconds; ' +
      'no discovery, /Me, /Bulk or .search (501); the requests Entra ID and Okta send are accepted ("True" and "False" as booleans, an add whose value filter matches nothing creates the value, a no-path replace may carry the id of the resource).',
    profile: 'scim-idp-minimal',
    apply: (b) => {
      b.schema = 'core';
      b.filter.support = { operators: ['eq'], logical: ['and'], attributes: ['username', 'externalid', 'displayname', 'active'], valuePaths: false };
      b.sort.applied = 'ignored';
      b.writes.emails = 'required-unique';
      b.writes.timestamps = 'seconds';
      b.paging.defaultCount = 100;
      b.paging.maxCount = 100;
      b.paging.itemsPerPage = 'requested';
      b.patch.success = 'no-content';
      b.patch.userGroups = 'omitted';
      // What Microsoft Entra ID and Okta send: string booleans, an add that creates the value its filter names.
      b.idp.booleanStrings = 'true-false';
      b.idp.addUnmatched = 'creates';
      b.idp.ownIdInValue = 'ignored';
    },
  },
  'full-featured': {
    description:
      'A full-featured server: the whole filter grammar, sorting, discovery served (/ServiceProviderConfig, /ResourceTypes), POST /Users/.search and /Groups/.search, ' +
      'GET, PUT and PATCH /Me (a service account); a default page of 50; PATCH answers 200 with the resource; ' +
      'resource versions (ETag, meta.version, If-Match, If-None-Match); POST /Bulk (at most 10 operations, 64 KiB); booleans only as JSON booleans ("True" and "False" refused 400 invalidValue).',
    profile: 'scim-full-featured',
    apply: (b) => fullFeatured(b),
  },
  'rfc-letter': {
    description:
      "A full-featured server (as full-featured) that reads RFC 7643/7644 where they allow another reading: each Bulk result's status an object with its code " +
      '({"code": "201"}, rfc7644#section-3.7.3\'s prose); /Schemas also lists the Schema resource\'s own schema as rfc7643#section-8.7.2 represents it ' +
      '(attributes.subAttributes with sub-attributes of their own); lenient PATCH parsing: a body without the PatchOp URN, or with an empty Operations, is applied, ' +
      'and an add or replace without a value is skipped (rfc7644#section-3.5.2 binds the client, not the server, to these); ' +
      'a filter comparing with null (`title eq null`) refused 400 invalidFilter (rfc7644#section-3.4.2.2 gives null no meaning).',
    profile: 'scim-rfc-letter',
    apply: (b) => {
      fullFeatured(b);
      b.bulk.statusForm = 'object';
      b.declares.schemaSchema = 'listed';
      b.patch.schemas = 'unchecked';
      b.patch.emptyOperations = 'no-op';
      b.patch.value = 'ignored';
      b.filter.nullValue = 'refused';
    },
  },
  'email-accounts': {
    description:
      'A server that keys its accounts on e-mail addresses: a user whose userName is not an e-mail address is refused without an e-mail ' +
      '(400 invalidValue "emails must contain an email when userName is not an email address", on POST and PUT), while its /Schemas marks only userName required; ' +
      'otherwise the reference server.',
    profile: 'scim-email-accounts',
    apply: (b) => {
      b.writes.emailForUserName = 'required';
    },
  },
} satisfies Record<string, ScimVariant>;

export type ScimVariantName = keyof typeof VARIANTS;
export const SCIM_VARIANTS: Readonly<Record<ScimVariantName, ScimVariant>> = VARIANTS;

export function isScimVariant(name: string): name is ScimVariantName {
  return Object.hasOwn(VARIANTS, name);
}

/** The behaviour of a variant (before any fault): the reference behaviour with the variant's choices. */
export function applyScimVariant(b: ScimBehaviour, name: string | undefined): ScimBehaviour {
  if (name === undefined) return b;
  if (!isScimVariant(name)) throw new TypeError(`unknown SCIM variant ${name} (${Object.keys(VARIANTS).join(', ')})`);
  VARIANTS[name].apply(b);
  return b;
}
