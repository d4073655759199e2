import { referenceScimOAuth, type ScimOAuthBehaviour } from './oauth.js';

/**
 * The SCIM family's rules as data (docs/decisions/scim/reference-server.md "SCIM reference server: choices"). The default is
 * the reference behaviour; a SCIM fault (scim/faults.ts, names `scim.…`) changes one entry, read
 * by the code at the point of the rule.
 */
export interface ScimBehaviour {
  /** The attributes the server keeps (and /Schemas lists): every attribute of RFC 7643 §4.1-4.3 and
   * the enterprise extension, or only a small core (an identity provider's app: userName, name,
   * displayName, emails, active; no extension; no derived `groups`). An attribute outside it is
   * unknown: 400 invalidSyntax in a body, 400 invalidFilter in a filter, invalidPath in a PATCH. */
  schema: 'full' | 'core';
  /** Discovery and the optional endpoints of RFC 7644 §3.11, §3.4.3, §4: served, or 501 (specification rule 4). */
  readonly endpoints: {
    /** GET /ServiceProviderConfig and GET /ResourceTypes (RFC 7644 §4). */
    discovery: 'served' | 'unsupported';
    /** POST /Users/.search and /Groups/.search (RFC 7644 §3.4.3); the root /.search stays 501. */
    search: 'served' | 'unsupported';
    /** GET, PUT, PATCH /Me: an alias of the token's service user (RFC 7644 §3.11). */
    me: 'served' | 'unsupported';
  };
  readonly transport: {
    /** Content type of every answer. */
    responseType: 'scim+json' | 'json';
    /** Request media types read as JSON: both, or only application/json (scim+json answers 415). */
    requestTypes: 'scim+json-and-json' | 'json-only' | 'scim+json-only';
    /** The longest request target served (414 beyond); undefined: Node's header limit (16 KiB). */
    maxUrlBytes: number | undefined;
  };
  readonly auth: {
    token: 'required' | 'not-checked';
    wrongToken: 'reject' | 'accept';
    wwwAuthenticate: 'bearer' | 'omitted';
  };
  /** The OAuth 2.0 authorization-code flow under /scim/v2/oauth (scim/oauth.ts). */
  readonly oauth: ScimOAuthBehaviour;
  readonly errors: {
    /** `status` in the error body: a string (RFC) or a number. */
    status: 'string' | 'integer';
    scimType: 'present' | 'omitted';
    /** `schemas: [Error URN]` in the error body, or left out. */
    schemas: 'present' | 'omitted';
    /** Status of the unsupported endpoints (specification rule 4). */
    unsupportedStatus: 501 | 404;
    /** A request body that is not JSON: 400 invalidSyntax, or 500. */
    malformedJson: 'invalid-syntax' | 'server-error';
    /** `status` in the error body: the HTTP status, or always "400". */
    bodyStatus: 'http' | 'always-400';
  };
  readonly paging: {
    /** A startIndex or count that is no integer (`startIndex=lpc`): 400 invalidValue, or read as NaN (a page with startIndex null). */
    nonInteger: 'invalid-value' | 'nan';
    /** `startIndex` counts from 1 (RFC) or from 0. */
    base: 1 | 0;
    /** Largest `count` honoured (spec: 1000); Infinity when uncapped. */
    maxCount: number;
    defaultCount: number;
    /** `startIndex` < 1: read as 1, or 400 invalidValue. */
    startIndexBelowOne: 'as-one' | 'reject';
    /** Negative `count`: read as 0, or the default page. */
    negativeCount: 'as-zero' | 'default';
    /** `count=0`: only totalResults, or the default page. */
    countZero: 'total-only' | 'default';
    /** A page holds at most `count` resources, or one more. */
    countLimit: 'count' | 'one-more';
    /** The page starts at startIndex, or at the next page boundary of `count` (startIndex rounded up to 1 + a multiple of count). */
    startAt: 'start-index' | 'page-boundary';
    /** `startIndex` past the end: no resources, or all of them. */
    pastEnd: 'empty' | 'everything';
    /** `itemsPerPage`: the number returned, or the count in force (asked for, capped, a negative one as 0). */
    itemsPerPage: 'returned' | 'requested';
    /** `totalResults`: every match, or the page's size. */
    totalResults: 'all-matches' | 'page';
  };
  readonly filter: {
    /** userName compared case-insensitively (caseExact false), or case-sensitively. */
    userNameCase: 'insensitive' | 'sensitive';
    /** The other caseExact-false strings (title, displayName, emails.value, …) compared case-insensitively, or case-sensitively. */
    otherStringsCase: 'insensitive' | 'sensitive';
    /** caseExact attributes (externalId, id) compared case-sensitively, or not. */
    caseExact: 'honoured' | 'ignored';
    /** gt and lt on strings: strict, or holding the equal value as ge and le do. */
    stringOrdering: 'strict' | 'inclusive';
    /** A truncated or malformed filter: 400 invalidFilter, or the filter is ignored. */
    malformed: 'reject' | 'ignore';
    /** gt/ge/lt/le on a boolean: 400 invalidFilter, or compared as false < true. */
    booleanOrdering: 'reject' | 'compare';
    /** co/sw/ew on a boolean (`active co true`): 400 invalidFilter, or compared as the words "true" and "false". */
    booleanSubstring: 'reject' | 'compare';
    /** A comparison of a complex attribute as a whole (`name eq "x"`): 400 invalidFilter, or a filter that matches nothing. */
    complexWhole: 'reject' | 'no-match';
    /** `eq null` and `ne null` (`title eq null`): read as "has no value" and "has a value" (RFC 7643 §2.5
     * makes null and unassigned one state), or refused 400 invalidFilter (RFC 7644 gives no meaning). */
    nullValue: 'absent' | 'refused';
    /** A PATCH path's value filter ends at the first `]` outside its string literals (Figure 1's
     * compValue is a JSON string, which may hold `]`), or at the first `]` wherever it is. */
    pathBrackets: 'outside-strings' | 'first';
    /** A value filter on a sub-attribute (`emails.value[type eq "work"]`): 400 invalidFilter, or read as
     * one on its parent (`emails[type eq "work"]`). */
    valuePathOnSub: 'reject' | 'parent';
    /** A filter cut short after `and`, `or` or `not`: 400 invalidFilter, or a server error. */
    cutShort: 'reject' | 'server-error';
    /** A filter naming an attribute the schema does not have: 400 invalidFilter, or a server error. */
    unknownAttribute: 'reject' | 'server-error';
    /** A string attribute compared with a boolean or a number (`userName eq true`): 400 invalidFilter, or a server error. */
    typeMismatch: 'reject' | 'server-error';
    /** Operators and logical words: case-insensitive, or lowercase only. */
    keywordCase: 'insensitive' | 'lowercase-only';
    /** `a or b and c`: and binds tighter, or left to right. */
    precedence: 'rfc' | 'left-to-right';
    /** Parentheses (a group, `not (…)`) inside parentheses: parsed, or 400 invalidFilter (one level only). */
    groups: 'nested' | 'one-level';
    /** dateTime attributes compared as instants or as strings. */
    dates: 'instants' | 'strings';
    /** A multi-valued attribute matches when any value does, or only its first value is read, or a
     * filter on one (`emails.value`, `emails[…]`) is refused (400 invalidFilter). */
    multiValued: 'any' | 'first' | 'refused';
    /** A filter that matches nothing: 200 with totalResults 0, or 404. */
    noMatch: 'empty-list' | 'not-found';
    /** totalResults of a filtered list: the matches, or every resource of the collection. */
    totalResults: 'matches' | 'collection';
    /** A filter naming an attribute by its schema URN: evaluated, or answered 404 (as a path). */
    urnPaths: 'evaluated' | 'not-found';
    /** What the server filters on (RFC 7644 §3.4.2.2 makes filtering optional; Table 9: an unsupported
     * comparison is 400 invalidFilter): comparison operators, logical operators, top-level attributes
     * (lower case), value paths; `all` for each is the whole grammar. */
    support: {
      operators: 'all' | readonly string[];
      logical: 'all' | readonly string[];
      attributes: 'all' | readonly string[];
      valuePaths: boolean;
    };
  };
  readonly sort: {
    applied: 'yes' | 'ignored';
    descending: 'honoured' | 'ignored';
    /** caseExact false attributes sort case-insensitively, or by code units. */
    caseInsensitive: 'honoured' | 'ignored';
    /** A multi-valued attribute sorts by its primary (else first) value, or by its last value. */
    multiValued: 'primary-or-first' | 'last';
    /** Resources without the value: last ascending (first descending), or first ascending. */
    missing: 'last' | 'first';
    /** A sub-attribute of a multi-valued attribute (emails.type): 400 invalidValue, or sorted by the chosen value's sub-attribute. */
    multiValuedSub: 'reject' | 'accept';
    /** An extension attribute (`urn:…:enterprise:2.0:User:employeeNumber`): read in its extension, or at the top of the resource (where it is not). */
    extension: 'in-extension' | 'top-level';
    /** sortBy naming no attribute of the schema: 400 invalidValue, or a 500 (the name read as if it resolved). */
    unknownAttribute: 'invalid-value' | 'server-error';
  };
  readonly projection: {
    attributes: 'honoured' | 'ignored';
    excludedAttributes: 'honoured' | 'ignored';
    /** `id` always returned, or droppable by attributes/excludedAttributes. */
    idAlways: 'yes' | 'no';
    /** Sub-attributes in attributes (`name.givenName`): honoured, or the whole parent. */
    subAttributes: 'honoured' | 'whole-parent';
    /** Attribute names in attributes/excludedAttributes: case-insensitive (rfc7643#section-2.1), or only as the schema spells them. */
    namesCase: 'insensitive' | 'exact';
    password: 'never' | 'returned';
  };
  readonly writes: {
    createStatus: 201 | 200;
    location: 'header' | 'omitted';
    metaLocation: 'present' | 'omitted';
    /** userName unique case-insensitively, or only exactly. */
    uniqueness: 'case-insensitive' | 'exact';
    conflictStatus: 409 | 400;
    /** A client-supplied id on POST: ignored, or used. */
    clientId: 'ignored' | 'used';
    /** PUT: attributes left out are cleared (replace), or kept (merge). */
    put: 'replace' | 'merge';
    /** null / [] in a PUT clear the attribute, or leave it as it was. */
    nullClears: 'yes' | 'no';
    lastModified: 'advances' | 'frozen';
    deleteStatus: 204 | 200;
    /** A deleted resource: gone (404), or still readable by id. */
    deleted: 'gone' | 'readable';
    /** A deleted user leaves its groups, or stays a member. */
    membership: 'follows-deletion' | 'kept';
    /** The userName of a deleted user is free again, or stays taken. */
    deletedUserName: 'free' | 'taken';
    /** Group members must name live users or groups (400 invalidValue), or are stored unchecked. */
    memberReferences: 'checked' | 'unchecked';
    /** An id never issued: 404, or 400. */
    unknownId: 404 | 400;
    /** Deleted users and groups: left out of lists, or still listed. */
    deletedListed: 'no' | 'yes';
    /** Required attributes (userName, name; Group displayName): checked (400 invalidValue), or not. */
    required: 'checked' | 'unchecked';
    /** A string where a boolean belongs (`active: "yes"`): 400 invalidValue, or coerced (non-empty = true). */
    booleanStrings: 'rejected' | 'coerced';
    /** userName stored as sent, or lower-cased. */
    userNameCase: 'preserved' | 'lowercased';
    /** meta.resourceType in representations, or left out. */
    metaResourceType: 'present' | 'omitted';
    /** `schemas` in representations, or left out. */
    resourceSchemas: 'present' | 'omitted';
    /** An id in a PUT body: ignored (read-only), or the resource moves to it. */
    putId: 'ignored' | 'used';
    /** Group members answered with their `value`, or with `$ref` only. */
    memberValue: 'present' | 'omitted';
    /** emails optional, or required with a value no other live user has (409 uniqueness, RFC 7644 §3.3). */
    emails: 'optional' | 'required-unique';
    /** A user body whose userName is not an e-mail address: taken as it is, or refused without an
     * e-mail (400 invalidValue, on POST and PUT, before the id of a PUT is looked up), as a server
     * keying its accounts on e-mail addresses does; its /Schemas still marks only userName required. */
    emailForUserName: 'optional' | 'required';
    /** meta.created / lastModified kept to the millisecond, or to whole seconds. */
    timestamps: 'milliseconds' | 'seconds';
  };
  readonly patch: {
    atomic: 'yes' | 'no';
    opCase: 'insensitive' | 'lowercase-only';
    /** An op that is none of add, remove and replace (`"op": "lpcCopy"`): 400 invalidSyntax, or the operation skipped (a success). */
    unknownOp: 'invalid-syntax' | 'skipped';
    /** A value filter in a path selects the matching values, or is ignored (all values). */
    valueFilter: 'honoured' | 'ignored';
    /** remove without path: 400 noTarget, or a no-op. */
    removeWithoutPath: 'no-target' | 'no-op';
    /** An operation whose path is not a string (`"path": 7`): 400 invalidPath, or read as having no path. */
    pathType: 'checked' | 'ignored';
    /** A value filter on an attribute that is not multi-valued and complex (`userName[value eq "x"].value`): 400 invalidPath, or an unhandled error (500). */
    filterOnSimple: 'invalid-path' | 'server-error';
    /** A no-path add/replace whose value holds a complex attribute (`{"name": {…}}`): applied, or a server error. */
    noPathComplex: 'applied' | 'server-error';
    /** remove of a whole multi-valued attribute without a filter (`emails`): every value removed, or none. */
    removeAllValues: 'removed' | 'kept';
    /** replace of a required attribute with null (`userName`): 400 invalidValue, or the attribute is deleted. */
    requiredNull: 'refused' | 'deletes';
    /** replace of an optional attribute with null: the attribute is unassigned (RFC 7643 §2.5), or 400 invalidValue. */
    optionalNull: 'unassigns' | 'refused';
    /** A sub-attribute path inside an extension (`urn:…:enterprise:2.0:User:manager.value`): applied, or 400 invalidPath. */
    extensionSubPath: 'applied' | 'rejected';
    /** A sub-attribute path on a multi-valued attribute without a filter (`emails.type`): every value, or only the first. */
    multiValuedSub: 'every-value' | 'first-only';
    /** add or replace of the values a value filter selects, without a sub-attribute (`emails[type eq "work"]`): those values, or every value. */
    filteredWrite: 'matched' | 'every-value';
    /** A read-only sub-attribute reached by a path without a filter (`urn:…:enterprise:2.0:User:manager.displayName`): refused as the mutability says, or written. */
    readOnlySub: 'checked' | 'written';
    /** A no-path add/replace whose value holds an extension's object (`{"urn:…:enterprise:2.0:User": {…}}`): its attributes applied, or the object dropped. */
    noPathExtension: 'applied' | 'dropped';
    /** A no-path add/replace whose value carries an `id` other than the resource's own: 400 mutability, or ignored. */
    noPathId: 'checked' | 'ignored';
    /** add of a value a multi-valued attribute already holds: kept once, or added again. */
    addExisting: 'kept-once' | 'duplicated';
    /** add with a value filter that matches values: writes them, or appends a new value (as an unmatched filter does). */
    filteredAdd: 'matched' | 'appends';
    /** add or replace of the values a value filter selects with null (`emails[type eq "work"]`): 400 invalidValue, or a success that changes nothing. */
    filteredNull: 'refused' | 'ignored';
    /** An element of Operations that is not an object (`null`): 400 invalidSyntax, or a server error. */
    nonObjectOperation: 'invalid-syntax' | 'server-error';
    /** A value filter the schema cannot evaluate (`emails[lpcNoSuch eq "x"]`): 400 invalidPath, or a server error. */
    invalidValueFilter: 'invalid-path' | 'server-error';
    /** An unknown attribute in a path: 400 invalidPath, or ignored. */
    unknownPath: 'invalid-path' | 'ignored';
    /** Removing a required or read-only attribute, writing a read-only one: 400 mutability, or done. */
    mutability: 'checked' | 'unchecked';
    /** add to a multi-valued attribute appends, or replaces all values. */
    addMultiValued: 'appends' | 'replaces';
    /** replace of a multi-valued attribute without a filter replaces all values, or appends to them. */
    replaceMultiValued: 'replaces' | 'appends';
    /** No-path add/replace with an object value: applied, or 400 invalidPath. */
    noPath: 'supported' | 'rejected';
    /** A body without the PatchOp URN in `schemas`: 400 invalidSyntax, or read anyway. */
    schemas: 'required' | 'unchecked';
    /** An empty `Operations` array: 400 invalidSyntax, or a no-op success. */
    emptyOperations: 'reject' | 'no-op';
    /** add/replace without `value`: 400 invalidValue, read as null (the attribute is cleared), or skipped (a lenient server's no-op). */
    value: 'required' | 'optional' | 'ignored';
    /** A path that is not valid path syntax: 400 invalidPath, or the operation is ignored. */
    malformedPath: 'invalid-path' | 'ignored';
    /** A successful PATCH: 200 with the resource (projected); 204, or 200 with the projection when
     * `attributes`/`excludedAttributes` is given (RFC 7644 §3.5.2); 204 always (even with `attributes`);
     * or 200 with an empty body. */
    success: 'resource' | 'no-content' | 'always-204' | 'empty-200';
    /** A user's `groups`: derived from the groups' members, or never shown. */
    userGroups: 'derived' | 'omitted';
    /** A PATCH that changes nothing (an identical add): meta.lastModified kept, or advanced anyway. */
    noOpLastModified: 'kept' | 'advanced';
    /** replace of a complex attribute (name) with some sub-attributes: merged, or the value overwrites it whole. */
    complexReplace: 'merges' | 'overwrites';
    /** A value made primary: the others' primary cleared, or left (the result, with two primaries, is then refused 400 invalidValue). */
    primary: 'clears-others' | 'unchanged';
    /** Whose addition clears the others' primary: a value that is primary, or any value added. */
    primaryClearedBy: 'primary-value' | 'any-value';
  };
  // --- Discovery, ETag, Bulk and /Me -----------------------------------------
  /** What GET /ServiceProviderConfig, /ResourceTypes and /Schemas say (when served): the truth, or a fault's lie. */
  readonly declares: {
    /** sort.supported: whether the server sorts, or true whatever it does. */
    sort: 'actual' | 'supported';
    /** filter.maxResults: the page cap in force, or 2 (below it). */
    maxResults: 'actual' | 'understated';
    /** The etag block of /ServiceProviderConfig (REQUIRED, rfc7643#section-5), or left out. */
    etagBlock: 'present' | 'omitted';
    /** The Group resource type's endpoint: /Groups, or /Group. */
    groupEndpoint: 'right' | 'wrong';
    /** /Schemas lists the Group schema, or leaves it out. */
    groupSchema: 'listed' | 'omitted';
    /** /Schemas lists the resource schemas only, or also the Schema resource's own schema as
     * rfc7643#section-8.7.2 represents it (its `attributes.subAttributes` with sub-attributes of their own). */
    schemaSchema: 'omitted' | 'listed';
    /** patch.supported: whether PATCH is served, or true whatever it does. */
    patch: 'actual' | 'supported';
    /** GET /ResourceTypes/{name} of a name it has not: 404, or the User resource type. */
    unknownResourceType: 'not-found' | 'first';
    /** GET /Schemas/{urn} of a URN it has not: 404, or the User schema. */
    unknownSchema: 'not-found' | 'first';
  };
  /** A PATCH that changes a user's password: applied (changePassword.supported says so where the schema keeps a password), or 400 mutability. */
  passwordChange: 'applied' | 'refused';
  /** PATCH served (as /ServiceProviderConfig patch.supported says), or 501 for every PATCH. */
  patchServed: 'yes' | 'no';
  /** Resource versions (rfc7644#section-3.14): ETag headers, meta.version, If-Match and If-None-Match. */
  readonly etag: {
    supported: boolean;
    /** The ETag header on a resource's answers: sent, or left out (meta.version alone). */
    header: 'sent' | 'omitted';
    /** meta.version equals the ETag header, or differs from it (the strong form of a weak tag). */
    metaVersion: 'header' | 'differs';
    /** The version changes on each modification (and only then), never, or on every read. */
    changes: 'on-modification' | 'never' | 'every-read';
    /** If-Match on PUT, PATCH, DELETE: checked (412 when it does not match), ignored, or 412 always. */
    ifMatch: 'checked' | 'ignored' | 'always-fails';
    /** If-None-Match on GET: 304 when it matches, or ignored. */
    ifNoneMatch: 'not-modified' | 'ignored';
  };
  /** POST /Bulk (rfc7644#section-3.7): served, its limits, and how it processes the operations. */
  readonly bulk: {
    supported: boolean;
    maxOperations: number;
    maxPayloadSize: number;
    /** `bulkId:<id>` in a later operation's path or data: the created resource's id, or kept as written. */
    bulkIds: 'resolved' | 'literal';
    /** Each result's status: a string (`"201"`, rfc7644#section-3.7.3's examples), or an object with
     * its code (`{"code": "201"}`, the section's prose and SCIM 1.1). */
    statusForm: 'string' | 'object';
    /** failOnErrors: processing stops after that many errors, or goes on. */
    failOnErrors: 'honoured' | 'ignored';
    /** More operations than maxOperations: 413, or processed. */
    maxOperationsLimit: 'enforced' | 'ignored';
    /** A body larger than maxPayloadSize: 413, or processed. */
    payloadLimit: 'enforced' | 'ignored';
    /** The BulkResponse: a result per operation, or only the failed ones. */
    results: 'every-operation' | 'failures-only';
  };
  /** /Me (when served): the token's service user, or a new user on every call. */
  meSubject: 'stable' | 'new-each-call';
  // Groups as identity providers use them, and the requests identity providers send.
  /** Group lists and membership (RFC 7644 §3.4.2, §3.5.2 on /Groups): each entry breaks one rule on
   * groups only, the users' lists and PATCH keeping the rule. */
  readonly groups: {
    /** `filter` on GET /Groups: applied, or ignored (every group listed). */
    filter: 'applied' | 'ignored';
    /** displayName (caseExact false) compared case-insensitively in a group filter, or case-sensitively. */
    displayNameCase: 'insensitive' | 'sensitive';
    /** A filter on members (members.value): supported, or refused 400 invalidFilter. */
    membersFilter: 'supported' | 'refused';
    /** sortBy on GET /Groups: applied, or ignored. */
    sort: 'applied' | 'ignored';
    /** startIndex and count on GET /Groups: honoured, or ignored (every group in one page). */
    paging: 'honoured' | 'ignored';
    /** attributes / excludedAttributes on groups: honoured, or ignored (members always answered). */
    projection: 'honoured' | 'ignored';
    /** PATCH add to members: appends every value, replaces the members, or stores only the first value. */
    addMembers: 'appends' | 'replaces' | 'first-only';
    /** PATCH remove members[value eq "…"]: only the matching member, or every member. */
    removeMemberFilter: 'honoured' | 'all';
    /** PATCH replace of members: the members become the value, or the value is appended. */
    replaceMembers: 'replaces' | 'appends';
  };
  /** Requests identity providers send (Microsoft Entra ID, Okta) that RFC 7644 does not oblige a
   * server to accept; a server meant for them does (the reference server, the variant idp-minimal). */
  readonly idp: {
    /** "True" / "False" (any case) where a boolean belongs: read as booleans, or refused 400 invalidValue. */
    booleanStrings: 'rejected' | 'true-false';
    /** A no-path add/replace whose value names attributes by dotted paths (`name.givenName`): paths, or refused 400 invalidPath. */
    dottedNames: 'paths' | 'rejected';
    /** remove of members with a value array: only the listed members, or every member (the RFC's reading of a path without filter). */
    removeWithValue: 'listed' | 'all';
    /** add with a value filter that matches nothing: 400 noTarget, or a value made from the filter's eq terms. */
    addUnmatched: 'no-target' | 'creates';
    /** PUT /Groups/{id} with members: the members become the list, or the list is merged into them. */
    putMembers: 'replaced' | 'merged';
    /** A filter on externalId: supported, or refused 400 invalidFilter. */
    externalIdFilter: 'supported' | 'refused';
    /** A user made inactive (active false): still readable, or answered 404 (taken for deleted). */
    inactive: 'visible' | 'hidden';
    /** A no-path replace whose value carries the resource's own id (Okta's group rename): 400 mutability, or the id ignored. */
    ownIdInValue: 'mutability' | 'ignored';
  };
}

export function referenceScimBehaviour(): ScimBehaviour {
  return {
    schema: 'full',
    endpoints: { discovery: 'unsupported', search: 'unsupported', me: 'unsupported' },
    transport: { responseType: 'scim+json', requestTypes: 'scim+json-and-json', maxUrlBytes: undefined },
    auth: { token: 'required', wrongToken: 'reject', wwwAuthenticate: 'bearer' },
    oauth: referenceScimOAuth(),
    errors: { status: 'string', scimType: 'present', schemas: 'present', unsupportedStatus: 501, malformedJson: 'invalid-syntax', bodyStatus: 'http' },
    paging: {
      nonInteger: 'invalid-value',
      base: 1,
      maxCount: 1000,
      defaultCount: 20,
      startIndexBelowOne: 'as-one',
      negativeCount: 'as-zero',
      countZero: 'total-only',
      countLimit: 'count',
      startAt: 'start-index',
      pastEnd: 'empty',
      itemsPerPage: 'returned',
      totalResults: 'all-matches',
    },
    filter: {
      userNameCase: 'insensitive',
      otherStringsCase: 'insensitive',
      caseExact: 'honoured',
      malformed: 'reject',
      booleanOrdering: 'reject',
      booleanSubstring: 'reject',
      complexWhole: 'reject',
      nullValue: 'absent',
      pathBrackets: 'outside-strings',
      valuePathOnSub: 'reject',
      cutShort: 'reject',
      unknownAttribute: 'reject',
      typeMismatch: 'reject',
      keywordCase: 'insensitive',
      precedence: 'rfc',
      stringOrdering: 'strict',
      groups: 'nested',
      dates: 'instants',
      multiValued: 'any',
      noMatch: 'empty-list',
      totalResults: 'matches',
      urnPaths: 'evaluated',
      support: { operators: 'all', logical: 'all', attributes: 'all', valuePaths: true },
    },
    sort: {
      applied: 'yes',
      descending: 'honoured',
      caseInsensitive: 'honoured',
      multiValued: 'primary-or-first',
      missing: 'last',
      multiValuedSub: 'reject',
      extension: 'in-extension',
      unknownAttribute: 'invalid-value',
    },
    projection: {
      attributes: 'honoured',
      excludedAttributes: 'honoured',
      idAlways: 'yes',
      subAttributes: 'honoured',
      password: 'never',
      namesCase: 'insensitive',
    },
    writes: {
      createStatus: 201,
      location: 'header',
      metaLocation: 'present',
      uniqueness: 'case-insensitive',
      conflictStatus: 409,
      clientId: 'ignored',
      put: 'replace',
      nullClears: 'yes',
      lastModified: 'advances',
      deleteStatus: 204,
      deleted: 'gone',
      membership: 'follows-deletion',
      deletedUserName: 'free',
      memberReferences: 'checked',
      unknownId: 404,
      deletedListed: 'no',
      required: 'checked',
      booleanStrings: 'rejected',
      userNameCase: 'preserved',
      metaResourceType: 'present',
      resourceSchemas: 'present',
      putId: 'ignored',
      memberValue: 'present',
      emails: 'optional',
      emailForUserName: 'optional',
      timestamps: 'milliseconds',
    },
    patch: {
      atomic: 'yes',
      pathType: 'checked',
      filterOnSimple: 'invalid-path',
      noPathComplex: 'applied',
      removeAllValues: 'removed',
      requiredNull: 'refused',
      optionalNull: 'unassigns',
      extensionSubPath: 'applied',
      multiValuedSub: 'every-value',
      filteredWrite: 'matched',
      readOnlySub: 'checked',
      noPathExtension: 'applied',
      noPathId: 'checked',
      addExisting: 'kept-once',
      filteredAdd: 'matched',
      filteredNull: 'refused',
      nonObjectOperation: 'invalid-syntax',
      invalidValueFilter: 'invalid-path',
      opCase: 'insensitive',
      unknownOp: 'invalid-syntax',
      valueFilter: 'honoured',
      removeWithoutPath: 'no-target',
      unknownPath: 'invalid-path',
      mutability: 'checked',
      addMultiValued: 'appends',
      replaceMultiValued: 'replaces',
      noPath: 'supported',
      schemas: 'required',
      emptyOperations: 'reject',
      value: 'required',
      malformedPath: 'invalid-path',
      success: 'resource',
      userGroups: 'derived',
      noOpLastModified: 'kept',
      complexReplace: 'merges',
      primary: 'clears-others',
      primaryClearedBy: 'primary-value',
    },
    // Discovery, ETag, Bulk and /Me: served by the full-featured variant.
    declares: {
      sort: 'actual',
      maxResults: 'actual',
      etagBlock: 'present',
      groupEndpoint: 'right',
      groupSchema: 'listed',
      schemaSchema: 'omitted',
      patch: 'actual',
      unknownResourceType: 'not-found',
      unknownSchema: 'not-found',
    },
    patchServed: 'yes',
    passwordChange: 'applied',
    etag: { supported: false, header: 'sent', metaVersion: 'header', changes: 'on-modification', ifMatch: 'checked', ifNoneMatch: 'not-modified' },
    bulk: {
      supported: false,
      maxOperations: 10,
      maxPayloadSize: 65536,
      bulkIds: 'resolved',
      statusForm: 'string',
      failOnErrors: 'honoured',
      maxOperationsLimit: 'enforced',
      payloadLimit: 'enforced',
      results: 'every-operation',
    },
    meSubject: 'stable',
    // Groups and identity-provider requests.
    groups: {
      filter: 'applied',
      displayNameCase: 'insensitive',
      membersFilter: 'supported',
      sort: 'applied',
      paging: 'honoured',
      projection: 'honoured',
      addMembers: 'appends',
      removeMemberFilter: 'honoured',
      replaceMembers: 'replaces',
    },
    // The requests Microsoft Entra ID and Okta are documented to send are accepted (the reference
    // profile names both clients); the variants of a general server take back the string booleans.
    idp: {
      booleanStrings: 'true-false',
      dottedNames: 'paths',
      removeWithValue: 'listed',
      addUnmatched: 'creates',
      putMembers: 'replaced',
      externalIdFilter: 'supported',
      inactive: 'visible',
      ownIdInValue: 'ignored',
    },
  };
}
