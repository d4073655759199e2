import { referenceScimBehaviour, type ScimBehaviour } from './behaviour.js';
import { applyScimVariant } from './variants.js';
import { applyFaults, type Fault, faultCatalogue, type FaultInfo } from '../http/faults.js';

/** SCIM faults: each breaks one rule of the SCIM reference server (one entry of ScimBehaviour). */
type ScimFault = Fault<ScimBehaviour>;

const SCIM_FAULT_TABLE = {
  // Transport and errors
  'scim.content-type-json': {
    description: 'Answers are labelled application/json instead of application/scim+json.',
    apply: (b) => void (b.transport.responseType = 'json'),
  },
  'scim.scim-json-request-rejected': {
    description: 'A request body sent as application/scim+json answers 415 (only application/json is read).',
    apply: (b) => void (b.transport.requestTypes = 'json-only'),
  },
  'scim.url-limit-4k': {
    description: 'A request target longer than 4096 bytes answers 414 URI Too Long (RFC 9110 section 4.1 recommends accepting 8000).',
    apply: (b) => void (b.transport.maxUrlBytes = 4096),
  },
  'scim.error-status-integer': {
    description: 'Error bodies carry `status` as a number instead of a string.',
    apply: (b) => void (b.errors.status = 'integer'),
  },
  'scim.error-scimtype-missing': { description: 'Error bodies omit `scimType`.', apply: (b) => void (b.errors.scimType = 'omitted') },
  'scim.error-schemas-missing': { description: 'Error bodies leave out `schemas` (the Error URN).', apply: (b) => void (b.errors.schemas = 'omitted') },
  'scim.unsupported-endpoints-404': {
    description: 'The unsupported endpoints (/Me, /ServiceProviderConfig, /ResourceTypes, /Bulk, .search) answer 404 instead of 501.',
    apply: (b) => void (b.errors.unsupportedStatus = 404),
  },
  'scim.malformed-json-500': {
    description: 'A request body that is not JSON answers 500 instead of 400 invalidSyntax.',
    apply: (b) => void (b.errors.malformedJson = 'server-error'),
  },
  'scim.error-status-mismatch': {
    description: 'Error bodies say status "400" whatever the HTTP status.',
    apply: (b) => void (b.errors.bodyStatus = 'always-400'),
  },
  'scim.json-request-rejected': {
    description: 'A request body sent as application/json answers 415 (only application/scim+json is read).',
    apply: (b) => void (b.transport.requestTypes = 'scim+json-only'),
  },
  // Authentication
  'scim.token-not-required': { description: 'Requests without a Bearer token are served instead of 401.', apply: (b) => void (b.auth.token = 'not-checked') },
  'scim.wrong-token-accepted': { description: 'A wrong Bearer token is accepted instead of 401.', apply: (b) => void (b.auth.wrongToken = 'accept') },
  'scim.no-www-authenticate': { description: 'A 401 answer carries no WWW-Authenticate header.', apply: (b) => void (b.auth.wwwAuthenticate = 'omitted') },
  // OAuth 2.0 authorization-code flow (scim/oauth.ts)
  'scim.oauth-code-reusable': {
    description: 'An authorization code of the SCIM OAuth flow can be exchanged for tokens again (consuming it records nothing).',
    apply: (b) => void (b.oauth.codeReuse = 'allowed'),
  },
  'scim.oauth-any-redirect-uri': {
    description: 'The SCIM OAuth authorization request accepts any redirect_uri, not only the registered one.',
    apply: (b) => void (b.oauth.redirectUri = 'any'),
  },
  'scim.oauth-no-refresh-token': {
    description: 'The SCIM OAuth token answer carries no refresh token.',
    apply: (b) => void (b.oauth.refreshToken = 'not-issued'),
  },
  'scim.oauth-access-token-8h': {
    description: 'SCIM OAuth access tokens last 8 hours (expires_in 28800) instead of 4.',
    apply: (b) => void (b.oauth.accessTokenTtl = 8 * 3600),
  },
  'scim.oauth-token-not-accepted': {
    description: 'SCIM refuses the access tokens of its OAuth flow (401) as if they were unknown tokens.',
    apply: (b) => void (b.oauth.scimAccepts = 'ignored'),
  },
  // Pagination
  'scim.pagination-zero-based': { description: 'startIndex counts from 0: startIndex=1 skips the first resource.', apply: (b) => void (b.paging.base = 0) },
  'scim.count-uncapped': {
    description: 'count above 1000 is honoured instead of capped at 1000.',
    apply: (b) => void (b.paging.maxCount = Number.POSITIVE_INFINITY),
  },
  'scim.default-count-100': { description: 'The default page holds 100 resources instead of 20.', apply: (b) => void (b.paging.defaultCount = 100) },
  'scim.start-index-below-one-rejected': {
    description: 'startIndex < 1 answers 400 invalidValue instead of counting as 1.',
    apply: (b) => void (b.paging.startIndexBelowOne = 'reject'),
  },
  'scim.start-index-not-integer-nan': {
    description: 'A startIndex that is no integer (`startIndex=lpc`) answers 200 with startIndex null and no resources instead of 400 invalidValue.',
    apply: (b) => void (b.paging.nonInteger = 'nan'),
  },
  'scim.negative-count-default': {
    description: 'A negative count gives the default page instead of counting as 0.',
    apply: (b) => void (b.paging.negativeCount = 'default'),
  },
  'scim.count-zero-default-page': {
    description: 'count=0 gives the default page instead of only totalResults.',
    apply: (b) => void (b.paging.countZero = 'default'),
  },
  'scim.count-plus-one': {
    description: 'A page holds one resource more than the count a request asks for.',
    apply: (b) => void (b.paging.countLimit = 'one-more'),
  },
  'scim.start-index-rounded-to-page': {
    description: 'A page starts at the next boundary of count (startIndex read as a page number), not at startIndex.',
    apply: (b) => void (b.paging.startAt = 'page-boundary'),
  },
  'scim.past-end-returns-first-page': {
    description: 'startIndex past the end returns the first page instead of no resources.',
    apply: (b) => void (b.paging.pastEnd = 'everything'),
  },
  'scim.items-per-page-requested': {
    description: 'itemsPerPage is the count asked for instead of the number returned.',
    apply: (b) => void (b.paging.itemsPerPage = 'requested'),
  },
  'scim.total-results-page-size': {
    description: 'totalResults is the size of the page instead of every match.',
    apply: (b) => void (b.paging.totalResults = 'page'),
  },
  // Filter
  'scim.filter-username-case-sensitive': {
    description: 'Filters compare userName case-sensitively (caseExact false ignored).',
    apply: (b) => void (b.filter.userNameCase = 'sensitive'),
  },
  'scim.filter-strings-case-sensitive': {
    description: 'Filters compare caseExact-false strings other than userName (title, displayName, emails.value) case-sensitively.',
    apply: (b) => void (b.filter.otherStringsCase = 'sensitive'),
  },
  'scim.filter-case-exact-ignored': {
    description: 'Filters compare caseExact attributes (externalId, id) case-insensitively.',
    apply: (b) => void (b.filter.caseExact = 'ignored'),
  },
  'scim.filter-malformed-ignored': {
    description: 'A malformed filter (e.g. `userName eq`) is ignored (every resource) instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.malformed = 'ignore'),
  },
  'scim.filter-boolean-ordering-accepted': {
    description: 'gt/ge/lt/le on a boolean compare false < true instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.booleanOrdering = 'compare'),
  },
  'scim.filter-boolean-substring-accepted': {
    description: 'co, sw and ew on a boolean (`active co true`) compare the words "true" and "false" instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.booleanSubstring = 'compare'),
  },
  'scim.filter-complex-whole-accepted': {
    description: 'A comparison of a complex attribute as a whole (`name eq "x"`) answers 200, matching nothing, instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.complexWhole = 'no-match'),
  },
  'scim.filter-null-refused': {
    description: '`eq null` and `ne null` (`title eq null`) answer 400 invalidFilter, where the profile says they read as "has no value" and "has a value".',
    apply: (b) => void (b.filter.nullValue = 'refused'),
  },
  'scim.filter-value-path-on-sub-attribute': {
    description:
      'A value filter on a sub-attribute (`emails.value[type eq "work"]`) is read as one on its parent (`emails[type eq "work"]`) instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.valuePathOnSub = 'parent'),
  },
  'scim.filter-cut-short-500': {
    description: 'A filter that ends after `and`, `or` or `not (` answers 500 instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.cutShort = 'server-error'),
  },
  'scim.filter-unknown-attribute-500': {
    description: 'A filter naming an attribute the schema does not have answers 500 instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.unknownAttribute = 'server-error'),
  },
  'scim.filter-type-mismatch-500': {
    description: 'A string attribute compared with a boolean or a number (`userName eq true`) answers 500 instead of 400 invalidFilter.',
    apply: (b) => void (b.filter.typeMismatch = 'server-error'),
  },
  'scim.filter-keywords-lowercase-only': {
    description: 'Operators and and/or/not are recognised in lower case only (`Eq` is 400 invalidFilter).',
    apply: (b) => void (b.filter.keywordCase = 'lowercase-only'),
  },
  'scim.filter-string-ordering-inclusive': {
    description: 'gt and lt on a string (`title gt "Director"`) also match the equal value, as ge and le do.',
    apply: (b) => void (b.filter.stringOrdering = 'inclusive'),
  },
  'scim.filter-precedence-left-to-right': {
    description: '`a or b and c` groups left to right instead of `and` binding tighter.',
    apply: (b) => void (b.filter.precedence = 'left-to-right'),
  },
  'scim.filter-nested-groups-refused': {
    description: 'A group inside a group (`a and (b or not (c))`) answers 400 invalidFilter: one level of parentheses only.',
    apply: (b) => void (b.filter.groups = 'one-level'),
  },
  'scim.filter-dates-as-strings': {
    description: 'dateTime attributes compare as strings instead of instants.',
    apply: (b) => void (b.filter.dates = 'strings'),
  },
  'scim.filter-multivalued-first-only': {
    description: 'A filter on a multi-valued attribute reads only its first value instead of any value.',
    apply: (b) => void (b.filter.multiValued = 'first'),
  },
  'scim.filter-multivalued-refused': {
    description:
      'A filter on a multi-valued attribute (`emails.value eq …`, `emails[type eq "work"]`) answers 400 invalidFilter instead of matching any value.',
    apply: (b) => void (b.filter.multiValued = 'refused'),
  },
  'scim.filter-no-match-404': {
    description: 'A filter that matches nothing answers 404 instead of 200 with totalResults 0.',
    apply: (b) => void (b.filter.noMatch = 'not-found'),
  },
  'scim.filter-total-results-unfiltered': {
    description: 'totalResults of a filtered list counts every resource of the collection instead of the matches.',
    apply: (b) => void (b.filter.totalResults = 'collection'),
  },
  'scim.filter-urn-qualified-404': {
    description: 'A filter naming an attribute by its schema URN (urn:…:User:userName) answers 404 instead of being evaluated.',
    apply: (b) => void (b.filter.urnPaths = 'not-found'),
  },
  // Sort
  'scim.sort-ignored': { description: 'sortBy is ignored (creation order).', apply: (b) => void (b.sort.applied = 'ignored') },
  'scim.sort-extension-top-level': {
    description: 'sortBy on an extension attribute (`urn:…:enterprise:2.0:User:employeeNumber`) reads it at the top of the resource, so nothing is sorted.',
    apply: (b) => void (b.sort.extension = 'top-level'),
  },
  'scim.sort-descending-ignored': { description: 'sortOrder=descending sorts ascending.', apply: (b) => void (b.sort.descending = 'ignored') },
  'scim.sort-case-sensitive': {
    description: 'caseExact-false attributes (userName) sort by code units, case-sensitively.',
    apply: (b) => void (b.sort.caseInsensitive = 'ignored'),
  },
  'scim.sort-multivalued-last-value': {
    description: 'A multi-valued attribute (emails) sorts by its last value instead of its primary or first one.',
    apply: (b) => void (b.sort.multiValued = 'last'),
  },
  'scim.sort-missing-first': {
    description: 'Resources without the sort value come first ascending instead of last.',
    apply: (b) => void (b.sort.missing = 'first'),
  },
  'scim.sort-unknown-attribute-500': {
    description: 'sortBy naming no attribute of the User (`sortBy=lpcNoSuchAttribute`) answers 500 instead of 400 invalidValue.',
    apply: (b) => void (b.sort.unknownAttribute = 'server-error'),
  },
  'scim.sort-sub-attribute-accepted': {
    description:
      "sortBy on a sub-attribute of a multi-valued attribute (emails.type) sorts by the primary or first value's sub-attribute instead of 400 invalidValue.",
    apply: (b) => void (b.sort.multiValuedSub = 'accept'),
  },
  // Projection
  'scim.attributes-ignored': { description: 'The attributes parameter is ignored.', apply: (b) => void (b.projection.attributes = 'ignored') },
  'scim.excluded-attributes-ignored': {
    description: 'The excludedAttributes parameter is ignored.',
    apply: (b) => void (b.projection.excludedAttributes = 'ignored'),
  },
  'scim.id-not-always-returned': {
    description: 'id is left out when attributes omits it or excludedAttributes names it.',
    apply: (b) => void (b.projection.idAlways = 'no'),
  },
  'scim.projection-names-case-sensitive': {
    description: 'Names in attributes and excludedAttributes are matched only in the schema spelling (USERNAME is unknown).',
    apply: (b) => void (b.projection.namesCase = 'exact'),
  },
  'scim.sub-attributes-whole-parent': {
    description: 'A sub-attribute in attributes/excludedAttributes (name.givenName) selects its whole parent.',
    apply: (b) => void (b.projection.subAttributes = 'whole-parent'),
  },
  'scim.password-returned': { description: 'password is returned in representations.', apply: (b) => void (b.projection.password = 'returned') },
  // Writes
  'scim.create-200': { description: 'POST answers 200 instead of 201.', apply: (b) => void (b.writes.createStatus = 200) },
  'scim.no-location': { description: 'POST answers without a Location header.', apply: (b) => void (b.writes.location = 'omitted') },
  'scim.meta-location-missing': { description: 'meta.location is left out of representations.', apply: (b) => void (b.writes.metaLocation = 'omitted') },
  'scim.username-unique-case-sensitive': {
    description: 'userName is unique only exactly: `Alice` and `alice` may both exist.',
    apply: (b) => void (b.writes.uniqueness = 'exact'),
  },
  'scim.uniqueness-400': { description: 'A userName conflict answers 400 instead of 409.', apply: (b) => void (b.writes.conflictStatus = 400) },
  'scim.client-id-used': { description: 'A client-supplied id in a POST body becomes the resource id.', apply: (b) => void (b.writes.clientId = 'used') },
  'scim.put-merges': { description: 'PUT keeps attributes left out of the body instead of clearing them.', apply: (b) => void (b.writes.put = 'merge') },
  'scim.put-null-keeps': {
    description: 'null or [] in a PUT body leave the attribute as it was instead of clearing it.',
    apply: (b) => void (b.writes.nullClears = 'no'),
  },
  'scim.last-modified-frozen': { description: 'meta.lastModified does not advance on PUT or PATCH.', apply: (b) => void (b.writes.lastModified = 'frozen') },
  'scim.delete-200': { description: 'DELETE answers 200 instead of 204.', apply: (b) => void (b.writes.deleteStatus = 200) },
  'scim.deleted-readable': {
    description: 'A deleted resource is still answered by GET (and PUT, PATCH) by id.',
    apply: (b) => void (b.writes.deleted = 'readable'),
  },
  'scim.delete-keeps-membership': { description: 'A deleted user stays a member of its groups.', apply: (b) => void (b.writes.membership = 'kept') },
  'scim.deleted-username-taken': {
    description: 'The userName of a deleted user cannot be used again (409).',
    apply: (b) => void (b.writes.deletedUserName = 'taken'),
  },
  'scim.member-references-unchecked': {
    description: 'Group members naming no resource are stored instead of 400 invalidValue.',
    apply: (b) => void (b.writes.memberReferences = 'unchecked'),
  },
  'scim.unknown-id-400': { description: 'An id never issued answers 400 instead of 404.', apply: (b) => void (b.writes.unknownId = 400) },
  'scim.deleted-listed': { description: 'Deleted users and groups are still listed.', apply: (b) => void (b.writes.deletedListed = 'yes') },
  'scim.required-unchecked': {
    description: 'Required attributes (userName, name, displayName) may be left out instead of 400.',
    apply: (b) => void (b.writes.required = 'unchecked'),
  },
  'scim.boolean-strings-coerced': {
    description: 'A string where a boolean belongs (`active: "yes"`) is stored as true instead of 400 invalidValue.',
    apply: (b) => void (b.writes.booleanStrings = 'coerced'),
  },
  'scim.username-lowercased': { description: 'userName is stored lower-cased instead of as sent.', apply: (b) => void (b.writes.userNameCase = 'lowercased') },
  'scim.meta-resource-type-missing': {
    description: 'meta.resourceType is left out of representations.',
    apply: (b) => void (b.writes.metaResourceType = 'omitted'),
  },
  'scim.resource-schemas-missing': {
    description: 'Users and groups are answered without `schemas`.',
    apply: (b) => void (b.writes.resourceSchemas = 'omitted'),
  },
  'scim.put-id-used': { description: 'An id in a PUT body becomes the resource id instead of being ignored.', apply: (b) => void (b.writes.putId = 'used') },
  'scim.member-value-omitted': {
    description: 'Group members are answered with $ref only, without their value (the member id).',
    apply: (b) => void (b.writes.memberValue = 'omitted'),
  },
  // PATCH
  'scim.patch-path-type-ignored': {
    description: 'An operation whose path is not a string (`"path": 7`) is read as having no path instead of 400 invalidPath.',
    apply: (b) => void (b.patch.pathType = 'ignored'),
  },
  'scim.patch-path-bracket-in-string': {
    description: 'A PATCH path\'s value filter ends at its first `]`, even one inside a string (`emails[value ne "a]b"].value`): 400 invalidPath.',
    apply: (b) => void (b.filter.pathBrackets = 'first'),
  },
  'scim.patch-filter-on-simple-500': {
    description:
      'A PATCH path with a value filter on an attribute that is not multi-valued and complex (`userName[value eq "x"].value`) answers 500 instead of 400 invalidPath.',
    apply: (b) => void (b.patch.filterOnSimple = 'server-error'),
  },
  'scim.patch-no-path-complex-500': {
    description: 'A no-path add or replace whose value holds a complex attribute (`{"name": {…}}`) answers 500 instead of applying it.',
    apply: (b) => void (b.patch.noPathComplex = 'server-error'),
  },
  'scim.patch-remove-all-values-kept': {
    description: 'remove of a whole multi-valued attribute without a filter (`emails`) answers success and leaves every value in place.',
    apply: (b) => void (b.patch.removeAllValues = 'kept'),
  },
  'scim.patch-replace-null-deletes-required': {
    description: 'replace of the required userName with null answers success and deletes the userName instead of 400.',
    apply: (b) => void (b.patch.requiredNull = 'deletes'),
  },
  'scim.patch-replace-null-refused': {
    description: 'replace of an optional attribute with null answers 400 invalidValue instead of unassigning it.',
    apply: (b) => void (b.patch.optionalNull = 'refused'),
  },
  'scim.patch-extension-sub-path-rejected': {
    description: 'A sub-attribute path inside an extension (`urn:…:enterprise:2.0:User:manager.value`) answers 400 invalidPath.',
    apply: (b) => void (b.patch.extensionSubPath = 'rejected'),
  },
  'scim.patch-multi-valued-sub-first-only': {
    description: 'A sub-attribute path on a multi-valued attribute without a filter (`emails.type`) changes only the first value.',
    apply: (b) => void (b.patch.multiValuedSub = 'first-only'),
  },
  'scim.patch-filtered-write-every-value': {
    description: 'An add or replace of the values a value filter selects (`emails[type eq "work"]`, no sub-attribute) writes every value of the attribute.',
    apply: (b) => void (b.patch.filteredWrite = 'every-value'),
  },
  'scim.patch-read-only-sub-written': {
    description:
      'A read-only sub-attribute reached by a path without a filter (`urn:…:enterprise:2.0:User:manager.displayName`) is written instead of 400 mutability.',
    apply: (b) => void (b.patch.readOnlySub = 'written'),
  },
  'scim.patch-no-path-extension-dropped': {
    description: 'A no-path add or replace drops the extension objects its value holds (`{"urn:…:enterprise:2.0:User": {"employeeNumber": …}}`).',
    apply: (b) => void (b.patch.noPathExtension = 'dropped'),
  },
  'scim.patch-no-path-id-ignored': {
    description: "A no-path add or replace ignores any `id` its value carries, not only the resource's own, instead of 400 mutability.",
    apply: (b) => void (b.patch.noPathId = 'ignored'),
  },
  'scim.patch-add-duplicates-values': {
    description: 'An add to a multi-valued attribute adds again the values it already holds (`emails`).',
    apply: (b) => void (b.patch.addExisting = 'duplicated'),
  },
  'scim.patch-null-operation-500': {
    description: 'A PATCH whose Operations holds an element that is not an object (`null`) answers 500.',
    apply: (b) => void (b.patch.nonObjectOperation = 'server-error'),
  },
  'scim.patch-value-filter-error-500': {
    description: 'A PATCH value filter the schema cannot evaluate (`emails[lpcNoSuch eq "x"]`) answers 500.',
    apply: (b) => void (b.patch.invalidValueFilter = 'server-error'),
  },
  'scim.patch-add-clears-primary': {
    description: 'Any value a PATCH adds to a multi-valued attribute clears primary on the others, a value that is not primary too.',
    apply: (b) => void (b.patch.primaryClearedBy = 'any-value'),
  },
  'scim.patch-filtered-add-appends': {
    description: 'An add whose value filter matches values (`emails[type eq "work"].value`) appends a new value instead of writing the matched ones.',
    apply: (b) => void (b.patch.filteredAdd = 'appends'),
  },
  'scim.patch-filtered-null-ignored': {
    description: 'A replace of `emails[type eq "work"]` with null answers 200 and keeps the work email instead of 400 invalidValue.',
    apply: (b) => void (b.patch.filteredNull = 'ignored'),
  },
  'scim.patch-not-atomic': { description: 'PATCH keeps the operations before a failing one.', apply: (b) => void (b.patch.atomic = 'no') },
  'scim.patch-unknown-op-skipped': {
    description: 'An operation whose op is none of add, remove and replace (`"op": "lpcCopy"`) is skipped, 200, instead of 400 invalidSyntax.',
    apply: (b) => void (b.patch.unknownOp = 'skipped'),
  },
  'scim.patch-op-case-sensitive': {
    description: 'PATCH op names are lowercase only (`Replace` is 400).',
    apply: (b) => void (b.patch.opCase = 'lowercase-only'),
  },
  'scim.patch-value-filter-ignored': {
    description: 'A value filter in a PATCH path is ignored: the operation applies to every value.',
    apply: (b) => void (b.patch.valueFilter = 'ignored'),
  },
  'scim.patch-remove-without-path-ok': {
    description: 'remove without a path is a no-op 200 instead of 400 noTarget.',
    apply: (b) => void (b.patch.removeWithoutPath = 'no-op'),
  },
  'scim.patch-unknown-path-ignored': {
    description: 'A PATCH path naming no attribute is ignored instead of 400 invalidPath.',
    apply: (b) => void (b.patch.unknownPath = 'ignored'),
  },
  'scim.patch-mutability-unchecked': {
    description: 'PATCH may remove required attributes and write read-only ones (ignored) instead of 400 mutability.',
    apply: (b) => void (b.patch.mutability = 'unchecked'),
  },
  'scim.patch-replace-appends-values': {
    description: 'A replace of a multi-valued attribute without a filter (`emails`) appends the values sent instead of replacing them all.',
    apply: (b) => void (b.patch.replaceMultiValued = 'appends'),
  },
  'scim.patch-add-replaces-values': {
    description: 'PATCH add to a multi-valued attribute replaces its values instead of appending.',
    apply: (b) => void (b.patch.addMultiValued = 'replaces'),
  },
  'scim.patch-no-path-rejected': {
    description: 'add/replace without a path answers 400 invalidPath instead of applying the object value.',
    apply: (b) => void (b.patch.noPath = 'rejected'),
  },
  'scim.patch-schemas-unchecked': {
    description: 'A PATCH body without the PatchOp URN in schemas is applied instead of 400.',
    apply: (b) => void (b.patch.schemas = 'unchecked'),
  },
  'scim.patch-empty-operations-ok': {
    description: 'A PATCH body with an empty Operations array is a no-op 200 instead of 400.',
    apply: (b) => void (b.patch.emptyOperations = 'no-op'),
  },
  'scim.patch-value-optional': {
    description: 'add/replace without a value clears the attribute instead of 400 invalidValue.',
    apply: (b) => void (b.patch.value = 'optional'),
  },
  'scim.patch-malformed-path-ignored': {
    description: 'A PATCH path that is not valid path syntax is ignored instead of 400 invalidPath.',
    apply: (b) => void (b.patch.malformedPath = 'ignored'),
  },
  'scim.patch-always-204': {
    description: 'A successful PATCH answers 204 even when attributes is given (RFC 7644 §3.5.2 then demands 200).',
    apply: (b) => void (b.patch.success = 'always-204'),
  },
  'scim.patch-empty-200': {
    description: 'A successful PATCH answers 200 with an empty body instead of the resource.',
    apply: (b) => void (b.patch.success = 'empty-200'),
  },
  'scim.user-groups-omitted': {
    description: "A user's groups attribute is never shown (not derived from the groups' members).",
    apply: (b) => void (b.patch.userGroups = 'omitted'),
  },
  'scim.patch-no-op-touches-last-modified': {
    description: 'A PATCH that changes nothing (an identical add) still advances meta.lastModified.',
    apply: (b) => void (b.patch.noOpLastModified = 'advanced'),
  },
  'scim.patch-complex-replace-overwrites': {
    description: 'replace of a complex attribute (name) with some sub-attributes drops the others instead of leaving them unchanged.',
    apply: (b) => void (b.patch.complexReplace = 'overwrites'),
  },
  'scim.patch-primary-not-cleared': {
    description: "A PATCH making a value primary leaves the others' primary true (then refused 400) instead of setting it false.",
    apply: (b) => void (b.patch.primary = 'unchanged'),
  },
  // Discovery, ETag, Bulk and /Me. Those of a capability the reference server
  // does not serve show on the full-featured variant (--variant scim.full-featured), which serves it.
  'scim.spc-etag-block-missing': {
    description: '/ServiceProviderConfig leaves out the etag block, which RFC 7643 section 5 makes REQUIRED (full-featured variant).',
    apply: (b) => void (b.declares.etagBlock = 'omitted'),
  },
  'scim.resource-types-group-endpoint-wrong': {
    description: 'The Group resource type names the endpoint /Group instead of /Groups, where groups are served (full-featured variant).',
    apply: (b) => void (b.declares.groupEndpoint = 'wrong'),
  },
  'scim.resource-type-unknown-200': {
    description: 'GET /ResourceTypes/{name} of a name it has not answers 200 with the User resource type instead of 404 (full-featured variant).',
    apply: (b) => void (b.declares.unknownResourceType = 'first'),
  },
  'scim.schema-unknown-200': {
    description: 'GET /Schemas/{urn} of a URN it has not answers 200 with the User schema instead of 404.',
    apply: (b) => void (b.declares.unknownSchema = 'first'),
  },
  'scim.schemas-group-omitted': {
    description: '/Schemas leaves out the core Group schema, though Groups are served.',
    apply: (b) => void (b.declares.groupSchema = 'omitted'),
  },
  'scim.spc-sort-overstated': {
    description: '/ServiceProviderConfig says sort.supported true, but sortBy is ignored (full-featured variant).',
    apply: (b) => {
      b.sort.applied = 'ignored';
      b.declares.sort = 'supported';
    },
  },
  'scim.spc-max-results-understated': {
    description: '/ServiceProviderConfig says filter.maxResults 2, but pages of up to 1000 resources are answered (full-featured variant).',
    apply: (b) => void (b.declares.maxResults = 'understated'),
  },
  'scim.filter-refused-though-declared': {
    description: 'Every filter answers 400 invalidFilter, though /ServiceProviderConfig says filter.supported true (full-featured variant).',
    apply: (b) => void (b.filter.support = { ...b.filter.support, operators: [] }),
  },
  'scim.patch-unsupported-though-declared': {
    description: 'PATCH answers 501, though /ServiceProviderConfig says patch.supported true (full-featured variant).',
    apply: (b) => {
      b.patchServed = 'no';
      b.declares.patch = 'supported';
    },
  },
  'scim.password-change-refused': {
    description:
      'A PATCH that changes a password answers 400 mutability, though /ServiceProviderConfig says changePassword.supported true (full-featured variant).',
    apply: (b) => void (b.passwordChange = 'refused'),
  },
  'scim.etag-header-missing': {
    description: "A resource's answers carry meta.version but no ETag header (full-featured variant).",
    apply: (b) => void (b.etag.header = 'omitted'),
  },
  'scim.etag-meta-version-differs': {
    description: "meta.version is the strong form of the ETag header's weak tag instead of the same value (full-featured variant).",
    apply: (b) => void (b.etag.metaVersion = 'differs'),
  },
  'scim.etag-frozen': {
    description: "A resource's version never changes, whatever is modified (full-featured variant).",
    apply: (b) => void (b.etag.changes = 'never'),
  },
  'scim.etag-per-read': {
    description: "A resource's version changes on every read, modified or not (full-featured variant).",
    apply: (b) => void (b.etag.changes = 'every-read'),
  },
  'scim.etag-if-match-ignored': {
    description: 'If-Match is ignored: a PUT, PATCH or DELETE naming a stale version is applied instead of 412 (full-featured variant).',
    apply: (b) => void (b.etag.ifMatch = 'ignored'),
  },
  'scim.etag-if-match-always-fails': {
    description: 'If-Match answers 412 even when it names the current version (full-featured variant).',
    apply: (b) => void (b.etag.ifMatch = 'always-fails'),
  },
  'scim.etag-if-none-match-ignored': {
    description: 'If-None-Match naming the current version is ignored: GET answers 200 with the resource instead of 304 (full-featured variant).',
    apply: (b) => void (b.etag.ifNoneMatch = 'ignored'),
  },
  'scim.bulk-bulkids-unresolved': {
    description: 'bulkId:<id> in a later Bulk operation is kept as written instead of standing for the id created (full-featured variant).',
    apply: (b) => void (b.bulk.bulkIds = 'literal'),
  },
  'scim.bulk-fail-on-errors-ignored': {
    description: 'A Bulk request goes on after failOnErrors errors instead of stopping (full-featured variant).',
    apply: (b) => void (b.bulk.failOnErrors = 'ignored'),
  },
  'scim.bulk-max-operations-ignored': {
    description: 'A Bulk request with more operations than maxOperations is processed instead of 413 (full-featured variant).',
    apply: (b) => void (b.bulk.maxOperationsLimit = 'ignored'),
  },
  'scim.bulk-max-payload-ignored': {
    description: 'A Bulk request larger than maxPayloadSize is processed instead of 413 (full-featured variant).',
    apply: (b) => void (b.bulk.payloadLimit = 'ignored'),
  },
  'scim.bulk-failures-only': {
    description: 'The BulkResponse lists only the failed operations instead of one result per operation (full-featured variant).',
    apply: (b) => void (b.bulk.results = 'failures-only'),
  },
  'scim.me-subject-unstable': {
    description: '/Me answers a new user on every call instead of the one the token belongs to (full-featured variant).',
    apply: (b) => void (b.meSubject = 'new-each-call'),
  },
  // Groups: each breaks its rule on /Groups only.
  'scim.groups-filter-ignored': {
    description: 'GET /Groups ignores filter: every group is listed, whatever the filter selects.',
    apply: (b) => void (b.groups.filter = 'ignored'),
  },
  'scim.groups-display-name-case-sensitive': {
    description: 'A group filter compares displayName (caseExact false) case-sensitively.',
    apply: (b) => void (b.groups.displayNameCase = 'sensitive'),
  },
  'scim.groups-members-filter-refused': {
    description: 'A group filter on members (members.value eq) answers 400 invalidFilter although the profile declares the attribute filterable.',
    apply: (b) => void (b.groups.membersFilter = 'refused'),
  },
  'scim.groups-sort-ignored': { description: 'GET /Groups ignores sortBy and sortOrder.', apply: (b) => void (b.groups.sort = 'ignored') },
  'scim.groups-paging-ignored': {
    description: 'GET /Groups ignores startIndex and count: the default page from the first group, whatever page is asked for.',
    apply: (b) => void (b.groups.paging = 'ignored'),
  },
  'scim.groups-projection-ignored': {
    description: 'attributes and excludedAttributes are ignored on groups: members are answered even with excludedAttributes=members.',
    apply: (b) => void (b.groups.projection = 'ignored'),
  },
  'scim.groups-add-members-replaces': {
    description: 'A PATCH add to members replaces the members instead of adding to them.',
    apply: (b) => void (b.groups.addMembers = 'replaces'),
  },
  'scim.groups-add-members-first-only': {
    description: 'A PATCH add of several members stores only the first of them.',
    apply: (b) => void (b.groups.addMembers = 'first-only'),
  },
  'scim.groups-remove-member-filter-ignored': {
    description: 'A PATCH remove of members[value eq "…"] removes every member instead of the one it names.',
    apply: (b) => void (b.groups.removeMemberFilter = 'all'),
  },
  'scim.groups-replace-members-appends': {
    description: 'A PATCH replace of members appends the value instead of making it the members.',
    apply: (b) => void (b.groups.replaceMembers = 'appends'),
  },
  // Identity-provider requests: each takes back one acceptance of the variant idp-minimal.
  'scim.client-string-booleans-rejected': {
    description: 'Booleans sent as strings ("True", "False"; Entra ID) are refused 400 invalidValue.',
    apply: (b) => void (b.idp.booleanStrings = 'rejected'),
  },
  'scim.client-dotted-names-rejected': {
    description: 'A no-path PATCH whose value names attributes by path (name.givenName; Entra ID) is refused 400 invalidPath.',
    apply: (b) => void (b.idp.dottedNames = 'rejected'),
  },
  'scim.client-remove-members-value-ignored': {
    description: 'remove of members with a value array (Entra ID) removes every member, not those listed.',
    apply: (b) => void (b.idp.removeWithValue = 'all'),
  },
  'scim.client-add-unmatched-no-target': {
    description: 'add with a value filter that matches nothing (emails[type eq "work"].value; Entra ID) answers 400 noTarget instead of creating the value.',
    apply: (b) => void (b.idp.addUnmatched = 'no-target'),
  },
  'scim.client-put-members-merged': {
    description: 'PUT /Groups/{id} (Okta) adds the members it lists to those the group had instead of making them its members.',
    apply: (b) => void (b.idp.putMembers = 'merged'),
  },
  'scim.client-external-id-filter-refused': {
    description: 'A filter on externalId (Entra ID, Okta) answers 400 invalidFilter.',
    apply: (b) => void (b.idp.externalIdFilter = 'refused'),
  },
  'scim.client-inactive-hidden': {
    description: 'A user made inactive (active false, how Okta and Entra ID deprovision) answers 404 as if deleted.',
    apply: (b) => void (b.idp.inactive = 'hidden'),
  },
  'scim.client-own-id-refused': {
    description: "A no-path replace whose value carries the group's own id (Okta's group rename) answers 400 mutability.",
    apply: (b) => void (b.idp.ownIdInValue = 'mutability'),
  },
} satisfies Record<string, ScimFault>;

export type ScimFaultName = keyof typeof SCIM_FAULT_TABLE;

/** The SCIM fault catalogue: name → family and description. */
export const SCIM_FAULTS: Readonly<Record<string, FaultInfo>> = faultCatalogue(SCIM_FAULT_TABLE);

export const isScimFaultName = (name: string): name is ScimFaultName => Object.hasOwn(SCIM_FAULT_TABLE, name);

/** The reference SCIM behaviour (or a variant's, variants.ts) with the given `scim.` faults applied;
 * throws on an unknown fault or variant. */
export function scimBehaviourWithFaults(faults: readonly string[], variant?: string): ScimBehaviour {
  const table: Readonly<Record<string, ScimFault>> = SCIM_FAULT_TABLE;
  return applyFaults(
    table,
    faults,
    applyScimVariant(referenceScimBehaviour(), variant),
    (unknown) => `Unknown SCIM fault${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Known: ${Object.keys(table).join(', ')}.`,
  );
}
