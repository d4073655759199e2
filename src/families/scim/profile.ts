/**
 * The SCIM family's part of a target profile: `families.scim` (default: the target URL + /scim/v2,
 * public-facts), `credentials.scim` and `expectations.scim`, where RFC 7643/7644 or the
 * specification leave a choice open (level PROFILE).
 */
import { oauthFlowSchema } from '../../profile/base/oauth.js';
import { closed } from '../../profile/base/schema-parts.js';
import type { FamilyCredentials, FamilyTarget, OAuthFlowExpectations } from '../../profile/base/types.js';
import type { FamilyProfile } from '../family.js';

/** The SCIM endpoints specification rule 4 names as unsupported. */
export const SCIM_UNSUPPORTED_ENDPOINTS = ['/Me', '/ServiceProviderConfig', '/ResourceTypes', '/Bulk', '/.search'] as const;

/** Where RFC 7643/7644 and the specification leave a SCIM choice open, the target declares it. */
export interface ScimExpectations {
  /** Status of the unsupported endpoints of specification rule 4 (/Me, /ServiceProviderConfig,
   * /ResourceTypes, POST /Bulk, POST .search); RFC 7644 §3.11 and §3.7 name 501. */
  readonly unsupportedStatus: number;
  /** The endpoints the target does not support (specification rule 4, by default all of them);
   * an endpoint the target supports is left out, and its check skipped. */
  readonly unsupported: readonly string[];
  /** A PATCH that succeeds answers 200 with the resource, 204 without a body, or either (RFC 7644 §3.5.2;
   * with `attributes` in the query it is 200 whatever this says). */
  readonly patchSuccess: 200 | 204 | 'either';
  /** `itemsPerPage` is the number of resources returned (RFC 7644 §3.4.2 text), or may be the count asked. */
  readonly itemsPerPage: 'returned' | 'either';
  /** A PATCH `add` whose value filter matches nothing: 400 noTarget, creates the value, or either. */
  readonly addUnmatchedValueFilter: 'noTarget' | 'creates' | 'either';
  /** Status of sortBy naming a sub-attribute of a multi-valued attribute (emails.type), which the
   * specification says is unsupported; 0: not checked. */
  readonly sortSubAttributeStatus: number;
  /** Whether the target sorts (RFC 7644 §3.4.2.3 makes sorting optional; the specification names it). */
  readonly sort: boolean;
  /** What the target's `filter` supports (RFC 7644 §3.4.2.2 makes filtering optional; Table 9 lets a
   * server refuse an unsupported comparison with 400 invalidFilter): filters within it are judged,
   * others may be refused, and the checks scope their lists with what it allows. */
  readonly filter: ScimFilterSupport;
  /** A filter comparing with null (`title eq null`, `ne null`), which Figure 1's grammar allows and RFC
   * 7644 gives no meaning: read as "has no value" and "has a value" (RFC 7643 §2.5 makes null and
   * unassigned one state), refused with 400 invalidFilter, or either. */
  readonly filterNull: 'absent' | 'refused' | 'either';
  /** The page size without `count` (RFC 7644 §3.4.2.4 leaves it to the provider; the platform's is 20, spec#limits). */
  readonly defaultCount: number;
  // Discovery, ETag, Bulk and /Me
  /** Whether the target versions its resources (ETag, RFC 7644 §3.14), for a target that serves no
   * /ServiceProviderConfig; one that does is held to its `etag.supported` instead. */
  readonly etag: boolean;
  // Identity-provider requests.
  /** The identity providers the target is meant for: the requests their documentation says they send
   * (which RFC 7644 does not oblige a server to accept) are checked, level PROFILE; none by default. */
  readonly client: readonly ScimClient[];
  /** The OAuth 2.0 authorization-code flow, the specification's recommended method (spec#scim-api):
   * paths under the SCIM base URL (public-facts: `/scim/v2/oauth/authorize`), the token endpoint
   * beside it by default; lifetimes the Integration API flow's unless the profile says otherwise. */
  readonly oauth: OAuthFlowExpectations;
  /** Attributes the target requires of a user beyond RFC 7643 §4.1's `userName` that its /Schemas
   * does not mark required (`emails`, say, when userName is not an e-mail address): every user the
   * checks create carries them from the first request, the minimal user of scim.users.create-201 too. */
  readonly userRequires: readonly string[];
  /** The target applies PATCH requests that break RFC 7644 §3.5.2's rules for the client (no PatchOp
   * URN in `schemas`, an empty `Operations`, an add or replace without `value`) instead of refusing
   * them: the checks of those refusals accept a success that changes nothing it was not asked to. */
  readonly patchLenient: boolean;
}

/** Identity providers whose documented requests the suite knows (suites/scim/client.check.ts). */
export const SCIM_CLIENTS = ['entra', 'okta'] as const;
export type ScimClient = (typeof SCIM_CLIENTS)[number];

/** RFC 7644 §3.4.2.2: the comparison operators (Table 3) and logical operators (Table 4) of a filter. */
export const SCIM_FILTER_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'pr', 'gt', 'ge', 'lt', 'le'] as const;
export const SCIM_FILTER_LOGICAL = ['and', 'or', 'not'] as const;

export type ScimFilterOperator = (typeof SCIM_FILTER_OPERATORS)[number];

/** The comparison operators, logical operators, attributes and value paths a target's filter supports. */
export interface ScimFilterSupport {
  readonly operators: readonly ScimFilterOperator[];
  readonly logical: readonly ('and' | 'or' | 'not')[];
  /** Top-level attribute names (case-insensitive; `emails` covers `emails.value`), or `all`. */
  readonly attributes: 'all' | readonly string[];
  /** Value paths (`emails[type eq "work"]`). */
  readonly valuePaths: boolean;
}

declare module '../../profile/base/types.js' {
  interface FamilyTargets {
    readonly scim: FamilyTarget;
  }
  interface FamilyCredentialSets {
    readonly scim: FamilyCredentials;
  }
  interface Expectations {
    /** The SCIM target's choices where RFC 7644 or the specification leave one open (level PROFILE). */
    readonly scim: ScimExpectations;
  }
}

export const DEFAULT_SCIM_EXPECTATIONS: ScimExpectations = {
  unsupportedStatus: 501,
  unsupported: SCIM_UNSUPPORTED_ENDPOINTS,
  patchSuccess: 'either',
  itemsPerPage: 'returned',
  addUnmatchedValueFilter: 'either',
  sortSubAttributeStatus: 400,
  sort: true,
  filter: { operators: SCIM_FILTER_OPERATORS, logical: SCIM_FILTER_LOGICAL, attributes: 'all', valuePaths: true },
  filterNull: 'absent',
  defaultCount: 20,
  etag: false,
  client: ['entra', 'okta'],
  userRequires: [],
  patchLenient: false,
  oauth: {
    authorizePath: '/oauth/authorize',
    tokenPath: '/oauth/token',
    redirectUri: 'https://client.lp-conformance.invalid/callback',
    scope: 'scim',
    accessTokenMaxSeconds: 14400,
  },
};

/** SCIM's own credentials by default: a ready token, and the OAuth flow's client and log-in (the
 * portal user, the token exchange's username and password when the profile gives those). */
export const DEFAULT_SCIM_CREDENTIALS: FamilyCredentials = {
  token: { env: 'LPC_SCIM_TOKEN' },
  oauth: {
    clientId: { env: 'LPC_SCIM_OAUTH_CLIENT_ID' },
    clientSecret: { env: 'LPC_SCIM_OAUTH_CLIENT_SECRET' },
    username: { env: 'LPC_SCIM_USERNAME' },
    password: { env: 'LPC_SCIM_PASSWORD' },
  },
};

export const SCIM_PROFILE: FamilyProfile = {
  baseUrl: { suffix: '/scim/v2' },
  ownCredentials: {
    defaults: DEFAULT_SCIM_CREDENTIALS,
    description:
      'SCIM: a bearer token (default LPC_SCIM_TOKEN), or username and password for the token exchange (operation scim.auth.token); oauth: the client of the OAuth 2.0 flow.',
  },
  schema: {
    expectations: {
      scim: closed({
        unsupportedStatus: { $ref: '#/$defs/status', description: 'Status of the unsupported endpoints (specification rule 4); RFC 7644 names 501.' },
        unsupported: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: SCIM_UNSUPPORTED_ENDPOINTS },
          description: 'The endpoints of specification rule 4 the target does not support; leave out those it serves.',
        },
        patchSuccess: {
          enum: [200, 204, 'either'],
          description: 'A successful PATCH: 200 with the resource, 204, or either (RFC 7644 §3.5.2).',
        },
        itemsPerPage: { type: 'string', enum: ['returned', 'either'], description: 'itemsPerPage is the number returned, or may be the count asked for.' },
        addUnmatchedValueFilter: {
          type: 'string',
          enum: ['noTarget', 'creates', 'either'],
          description: 'A PATCH add whose value filter matches nothing: 400 noTarget, creates the value, or either.',
        },
        sortSubAttributeStatus: {
          type: 'integer',
          enum: [0, 400, 200],
          description: 'sortBy on a sub-attribute of a multi-valued attribute (emails.type): 400, 200, or 0 (not checked).',
        },
        sort: { type: 'boolean', description: 'Whether the target sorts (sortBy/sortOrder).' },
        filter: closed(
          {
            operators: { type: 'array', uniqueItems: true, items: { type: 'string', enum: SCIM_FILTER_OPERATORS } },
            logical: { type: 'array', uniqueItems: true, items: { type: 'string', enum: SCIM_FILTER_LOGICAL } },
            attributes: {
              oneOf: [{ const: 'all' }, { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'string', pattern: '^[A-Za-z$][A-Za-z0-9$_.:-]*$' } }],
              description: 'Top-level attribute names a filter may name (emails covers emails.value), or all.',
            },
            valuePaths: { type: 'boolean', description: 'Value paths such as emails[type eq "work"].' },
          },
          { description: "What the target's filter supports (RFC 7644 §3.4.2.2); a filter outside it may be refused with 400 invalidFilter." },
        ),
        filterNull: {
          type: 'string',
          enum: ['absent', 'refused', 'either'],
          description: 'A filter comparing with null (title eq null): read as "has no value" (ne null: "has a value"), refused 400 invalidFilter, or either.',
        },
        defaultCount: {
          type: 'integer',
          minimum: 1,
          description: 'The page size of a list without count (RFC 7644 §3.4.2.4 leaves it to the provider; the platform: 20).',
        },
        etag: {
          type: 'boolean',
          description: 'Whether the target versions resources (ETag, RFC 7644 §3.14) when it serves no /ServiceProviderConfig (which, when served, says it).',
        },
        client: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', enum: SCIM_CLIENTS },
          description:
            'The identity providers the target is meant for (entra: Microsoft Entra ID, okta: Okta): their documented requests are checked (level PROFILE).',
        },
        oauth: oauthFlowSchema('the SCIM base URL'),
        userRequires: {
          type: 'array',
          uniqueItems: true,
          items: { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9$_-]*$' },
          description:
            "Top-level attributes the target requires of every user beyond userName although its /Schemas does not say so (emails, say): the checks' users carry them from the first request.",
        },
        patchLenient: {
          type: 'boolean',
          description:
            'The target applies a PATCH without the PatchOp URN, with an empty Operations, or an add/replace without value, instead of 400 (RFC 7644 §3.5.2 binds the client).',
        },
      }),
    },
  },
  expectations: { scim: DEFAULT_SCIM_EXPECTATIONS },
};
