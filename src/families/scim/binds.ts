/**
 * The sentences of RFC 7643/7644 (or of the specification) that bind the server to the SCIM MUST
 * checks that do not quote their own (Family.binds): the first rule whose pattern matches a check's
 * id gives its sentence. A refusal that judges a client's violation is not here: it is SHOULD
 * (docs/decisions/scim/levels.md).
 */
import type { BindingRule } from '../family.js';

const NOT_FOUND = 'RFC 7644 §3.12 Table 8: 404 "Specified resource (e.g., User) or endpoint does not exist."';
const DELETED =
  'RFC 7644 §3.6: "Service providers MAY choose not to permanently delete the resource but MUST return a 404 (Not Found) error code for all operations associated with the previously deleted resource. Service providers MUST omit the resource from future query results."';
const CREATED =
  'RFC 7644 §3.3: "When the service provider successfully creates the new resource, an HTTP response SHALL be returned with HTTP status code 201 (Created)."';
const LOCATION =
  'RFC 7644 §3.3: "The URI of the created resource SHALL include, in the HTTP "Location" header and the HTTP body, a JSON representation [RFC7159] with the attribute "meta.location"."';
const FILTERED = 'RFC 7644 §3.4.2.2: "When specified, only those resources matching the filter expression SHALL be returned."';
const CASE_EXACT = 'RFC 7643 §7 (caseExact): "The server SHALL use case sensitivity when evaluating filters."';
const SORT_BY = 'RFC 7644 §3.4.2.3: "The "sortBy" parameter specifies the attribute whose value SHALL be used to order the returned responses."';
const COUNT =
  'RFC 7644 §3.4.2.4 (count): "When specified, the service provider MUST NOT return more results than specified, although it MAY return fewer results."';
const START_INDEX = 'RFC 7644 §3.4.2.4: "startIndex: The 1-based index of the first query result."';
const TOTAL_RESULTS = 'RFC 7644 §3.4.2: "totalResults: The total number of results returned by the list or query operation."';
const ATTRIBUTES =
  'RFC 7644 §3.9: "attributes: A multi-valued list of strings indicating the names of resource attributes to return in the response, overriding the set of attributes that would be returned by default."';
const EXCLUDED =
  'RFC 7644 §3.9: "excludedAttributes: A multi-valued list of strings indicating the names of resource attributes to be removed from the default set of attributes to return."';
const PATCH_SUCCESS =
  'RFC 7644 §3.5.2: "On successful completion, the server either MUST return a 200 OK response code and the entire resource within the response body, subject to the "attributes" query parameter (see Section 3.9), or MAY return HTTP status code 204 (No Content)"';
const PATCH_SCHEMA =
  'RFC 7644 §3.5.2: "An operation that is not compatible with an attribute\'s mutability or schema SHALL return the appropriate HTTP response status code and a JSON detail error response as defined in Section 3.12."';
const ADD_MULTI = 'RFC 7644 §3.5.2.1: "If the target location specifies a multi-valued attribute, a new value is added to the attribute."';
const SUPPORTED = 'RFC 7643 §5: each feature\'s "supported": "A Boolean value specifying whether or not the operation is supported."';
const VERSION =
  'RFC 7643 §3.1 (meta.version): "The version of the resource being returned. This value must be the same as the entity-tag (ETag) HTTP response header"';
const ID = 'RFC 7643 §3.1: "Each representation of the resource MUST include a non-empty "id" value."';

export const SCIM_BINDS: readonly BindingRule[] = [
  // Authentication and media type.
  {
    checks: /^scim\.auth\.www-authenticate$/,
    binds:
      'RFC 6750 §3: "If the protected resource request does not include authentication credentials or does not contain an access token that enables access to the protected resource, the resource server MUST include the HTTP "WWW-Authenticate" response header field"',
  },
  { checks: /^scim\.media\.scim-json-request$/, binds: 'RFC 7644 §3.8: "Servers MUST accept requests and be able to return JSON using UTF-8 encoding"' },
  // Bulk.
  {
    checks: /^scim\.bulk\.result-per-operation$/,
    binds:
      'RFC 7644 §3.7: a BulkResponse operation\'s "status: The HTTP response status code for the requested operation." and "location: The resource endpoint URL. REQUIRED in a response, except in the event of a POST failure."',
  },
  {
    checks: /^scim\.bulk\.bulkid-reference$/,
    binds: 'RFC 7644 §3.7.2: "The service provider MUST replace the string "bulkId:qwerty" with the permanent resource id once created."',
  },
  {
    checks: /^scim\.bulk\.fail-on-errors$/,
    binds:
      'RFC 7644 §3.7: "failOnErrors: An integer specifying the number of errors that the service provider will accept before the operation is terminated and an error response is returned."',
  },
  // Discovery.
  {
    checks: /^scim\.discovery\.service-provider-config$/,
    binds:
      'RFC 7644 §4: "/ServiceProviderConfig: An HTTP GET to this endpoint will return a JSON structure that describes the SCIM specification features available on a service provider."',
  },
  {
    checks: /^scim\.discovery\.resource-types$/,
    binds:
      'RFC 7644 §4: "/ResourceTypes: An HTTP GET to this endpoint is used to discover the types of resources available on a SCIM service provider (e.g., Users and Groups)."',
  },
  {
    checks: /^scim\.discovery\.schemas-core$/,
    binds: 'RFC 7644 §4: "/Schemas: An HTTP GET to this endpoint is used to retrieve information about resource schemas supported by a SCIM service provider."',
  },
  {
    checks: /^scim\.discovery\.max-results-as-declared$/,
    binds: 'RFC 7643 §5 (filter.maxResults): "An integer value specifying the maximum number of resources returned in a response."',
  },
  { checks: /^scim\.discovery\.[a-z-]+-as-declared$/, binds: SUPPORTED },
  // Errors and uniqueness.
  {
    checks: /^scim\.errors\.missing-username-400$/,
    binds: 'RFC 7643 §4.1.1 (userName): "Each User MUST include a non-empty userName value." (Table 9: invalidValue, "A required value was missing")',
  },
  {
    checks: /^scim\.users\.(duplicate-409|username-unique-case-insensitive)$/,
    binds:
      'RFC 7644 §3.3: "If the service provider determines that the creation of the requested resource conflicts with existing resources (e.g., a "User" resource with a duplicate "userName"), the service provider MUST return HTTP status code 409 (Conflict) with a "scimType" error code of "uniqueness""',
  },
  // ETags.
  {
    checks: /^scim\.etag\.if-match-stale-412$/,
    binds:
      'RFC 9110 §13.1.1: "An origin server MUST NOT perform the requested method if a received If-Match condition evaluates to false"; it responds 412 (Precondition Failed)',
  },
  {
    checks: /^scim\.etag\.if-match-current-applied$/,
    binds: 'RFC 9110 §13.1.1: a received If-Match condition that evaluates to true lets the server perform the requested method (the PUT is applied)',
  },
  { checks: /^scim\.etag\./, binds: VERSION },
  // Filters.
  {
    checks: /^scim\.filter\.(names-and-operators|logical-keywords)-case-insensitive$/,
    binds: 'RFC 7644 §3.4.2.2: "Attribute names and attribute operators used in filters are case insensitive."',
  },
  {
    checks: /^scim\.filter\.(and-binds-tighter-than-or|not-negates-group)$/,
    binds:
      'RFC 7644 §3.4.2.2: "Filters MUST be evaluated using the following order of operations, in order of precedence: 1. Grouping operators 2. Attribute operators 3. Logical operators - where "not" takes precedence over "and", which takes precedence over "or""',
  },
  {
    checks: /^scim\.filter\.(malformed-rejected|cut-short-rejected)$/,
    binds:
      'RFC 7644 §3.4.2.2 and §3.12 Table 9: invalidFilter, "The specified filter syntax was invalid"; a server that ignores a filter it cannot parse answers resources the client did not ask for',
  },
  {
    checks: /^scim\.filter\.boolean-ordering-rejected$/,
    binds:
      'RFC 7644 §3.4.2.2, Table 3 (gt, ge, lt, le): "Boolean and Binary attributes SHALL cause a failed response (HTTP status code 400) with "scimType" of "invalidFilter""',
  },
  { checks: /^scim\.(filter|groups)\.[a-z-]*(case-insensitive|case-exact)$/, binds: CASE_EXACT },
  {
    checks: /^scim\.filter\.no-match-empty-list$/,
    binds: 'RFC 7644 §3.4.2: "A query that does not return any matches SHALL return success (HTTP status code 200) with "totalResults" set to a value of 0."',
  },
  { checks: /^scim\.filter\.total-results-filtered$/, binds: TOTAL_RESULTS },
  {
    checks: /^scim\.filter\.public-facts-example$/,
    binds: `public-facts, SCIM specifics: "Filter example: \`userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")\`"; ${FILTERED}`,
  },
  { checks: /^scim\.(filter\.|groups\.filter-)/, binds: FILTERED },
  // Groups.
  { checks: /^scim\.groups\.create-201$/, binds: CREATED },
  { checks: /^scim\.groups\.create-location$/, binds: LOCATION },
  {
    checks: /^scim\.groups\.create-members$/,
    binds: 'RFC 7643 §4.2 (members): "The "value" sub-attribute contains the value of an "id" attribute of a SCIM resource"',
  },
  { checks: /^scim\.groups\.patch-add-(member|several-members)$/, binds: ADD_MULTI },
  {
    checks: /^scim\.groups\.patch-remove-member-filter$/,
    binds:
      'RFC 7644 §3.5.2.2: "If the target location is a multi-valued attribute and a complex filter is specified comparing a "value", the values matched by the filter are removed."',
  },
  {
    checks: /^scim\.groups\.patch-replace-members$/,
    binds: 'RFC 7644 §3.5.2.3: "If the target location is a multi-valued attribute and no filter is specified, the attribute and all values are replaced."',
  },
  {
    checks: /^scim\.(groups|users)\.delete-204$/,
    binds: 'RFC 7644 §3.6: "In response to a successful DELETE, the server SHALL return a successful HTTP status code 204 (No Content)."',
  },
  { checks: /^scim\.(groups|users)\.deleted-(404|not-listed)$/, binds: DELETED },
  { checks: /^scim\.groups\.sort-/, binds: SORT_BY },
  { checks: /^scim\.groups\.count-not-exceeded$/, binds: COUNT },
  { checks: /^scim\.groups\.walk-exactly-once$/, binds: START_INDEX },
  { checks: /^scim\.groups\.(get|list)-excluded-members$/, binds: EXCLUDED },
  { checks: /^scim\.groups\.attributes-display-name$/, binds: ATTRIBUTES },
  // /Me.
  {
    checks: /^scim\.me\.authenticated-subject$/,
    binds:
      'RFC 7644 §3.11: "A client MAY use a URL of the form "<base-URI>/Me" as a URI alias for the User or other resource associated with the currently authenticated subject for any SCIM operation."',
  },
  // Pagination.
  { checks: /^scim\.pagination\.count-not-exceeded$/, binds: COUNT },
  { checks: /^scim\.pagination\.total-results$/, binds: TOTAL_RESULTS },
  { checks: /^scim\.pagination\.(page-is-slice|past-end)$/, binds: START_INDEX },
  { checks: /^scim\.pagination\.start-index-below-one$/, binds: 'RFC 7644 §3.4.2.4 (startIndex): "A value less than 1 SHALL be interpreted as 1."' },
  {
    checks: /^scim\.pagination\.(negative-count|count-zero)$/,
    binds:
      'RFC 7644 §3.4.2.4 (count): "A negative value SHALL be interpreted as "0". A value of "0" indicates that no resource results are to be returned except for "totalResults"."',
  },
  {
    checks: /^scim\.pagination\.walk-exactly-once$/,
    binds: 'spec, SCIM 2.0 API, rule 1: "Clients advance startIndex on successive calls until no records come back."',
  },
  {
    checks: /^scim\.pagination\.default-page$/,
    binds: 'spec, Limits: "SCIM default page | startIndex=1, count=20 | SCIM GET lists without pagination parameters"',
  },
  { checks: /^scim\.pagination\.count-capped$/, binds: 'spec, Limits: "SCIM maximum count | 1000 | SCIM GET lists"' },
  // PATCH.
  { checks: /^scim\.patch\.(success-answer|attributes-200)$/, binds: PATCH_SUCCESS },
  {
    checks: /^scim\.patch\.atomic$/,
    binds:
      'RFC 7644 §3.5.2: "A patch request, regardless of the number of operations, SHALL be treated as atomic. If a single operation encounters an error condition, the original target resource MUST be restored, and a failure status SHALL be returned."',
  },
  {
    checks: /^scim\.patch\.identical-add-keeps-last-modified$/,
    binds: 'RFC 7644 §3.5.2.1: "Unless other operations change the resource, this operation SHALL NOT change the modify timestamp of the resource."',
  },
  { checks: /^scim\.patch\.primary-clears-others$/, binds: 'RFC 7643 §2.4 (primary): "The primary attribute value "true" MUST appear no more than once."' },
  {
    checks: /^scim\.patch\.no-path-complex-value$/,
    binds:
      'RFC 7644 §3.5.2.3: "If the "path" parameter is omitted, the target is assumed to be the resource itself. In this case, the "value" attribute SHALL contain a list of one or more attributes that are to be replaced."',
  },
  {
    checks: /^scim\.patch\.remove-multi-valued-all$/,
    binds:
      'RFC 7644 §3.5.2.2: "If the target location is a multi-valued attribute and no filter is specified, the attribute and all values are removed, and the attribute SHALL be considered unassigned."',
  },
  { checks: /^scim\.patch\.(unknown-attribute-path|malformed-path|read-only-mutability|value-filter-on-simple-attribute)$/, binds: PATCH_SCHEMA },
  {
    checks: /^scim\.patch\.replace-null-unassigns$/,
    binds:
      'RFC 7643 §2.5: "Unassigned attributes, the null value, or empty array (in the case of a multi-valued attribute) SHALL be considered to be equivalent in "state"."',
  },
  {
    checks: /^scim\.patch\.extension-complex-sub-attribute$/,
    binds: 'RFC 7644 §3.5.2.1: "If the target location does not exist, the attribute and value are added."',
  },

  { checks: /^scim\.patch\.model$/, binds: `${ADD_MULTI}; the outcomes of add, replace and remove of RFC 7644 §3.5.2.1 to §3.5.2.3` },
  // Projection.
  {
    checks: /^scim\.projection\.id-always$/,
    binds: 'RFC 7643 §7 (returned): "always: The attribute is always returned, regardless of the contents of the "attributes" parameter."',
  },
  { checks: /^scim\.projection\.names-case-insensitive$/, binds: 'RFC 7643 §2.1: "Attribute names are case insensitive"' },
  { checks: /^scim\.projection\.excluded-attributes$/, binds: EXCLUDED },
  {
    checks: /^scim\.projection\.attributes-on-(create|replace)$/,
    binds:
      'RFC 7644 §3.9: "Clients MAY request a partial resource representation on any operation that returns a resource within the response by specifying either of the mutually exclusive URL query parameters "attributes" or "excludedAttributes""',
  },
  { checks: /^scim\.projection\./, binds: ATTRIBUTES },
  // Users.
  { checks: /^scim\.users\.create-201$/, binds: CREATED },
  { checks: /^scim\.users\.create-(location|meta-location)$/, binds: LOCATION },
  {
    checks: /^scim\.users\.create-ignores-client-id$/,
    binds: 'RFC 7643 §3.1: "The value of the "id" attribute is always issued by the service provider and MUST NOT be specified by the client."',
  },
  {
    checks: /^scim\.users\.put-null-clears$/,
    binds:
      'RFC 7643 §2.5: "Unassigned attributes, the null value, or empty array (in the case of a multi-valued attribute) SHALL be considered to be equivalent in "state"."',
  },
  { checks: /^scim\.users\.put-keeps-id$/, binds: 'RFC 7644 §3.5.1 (readOnly): "Any values provided SHALL be ignored."' },
  { checks: /^scim\.users\.(put|get)-unknown-404$/, binds: NOT_FOUND },
  {
    checks: /^scim\.users\.last-modified-advances$/,
    binds: 'RFC 7643 §3.1 (meta.lastModified): "The most recent DateTime that the details of this resource were updated at the service provider."',
  },
  // Sorting.
  {
    checks: /^scim\.sort\.default-ascending$/,
    binds: 'RFC 7644 §3.4.2.3: "If a value for "sortBy" is provided and no "sortOrder" is specified, "sortOrder" SHALL default to ascending."',
  },
  {
    checks: /^scim\.sort\.missing-values$/,
    binds:
      'RFC 7644 §3.4.2.3: "For all attribute types, if there is no data for the specified "sortBy" value, they are sorted via the "sortOrder" parameter, i.e., they are ordered last if ascending and first if descending."',
  },
  { checks: /^scim\.sort\./, binds: SORT_BY },
  // Invariants.
  {
    checks: /^scim\.invariant\.no-5xx$/,
    binds:
      'RFC 7644 §3.12 Table 8: a request the server cannot satisfy answers a 4xx ("400 … Request is unparsable, syntactically incorrect, or violates schema"); a 5xx ("500 … An internal error") is its own failure',
  },
  { checks: /^scim\.invariant\.scim-content-type$/, binds: 'RFC 7644 §3.1: "… SCIM uses a media type of "application/scim+json" …"' },
  {
    checks: /^scim\.invariant\.success-body-matches-contract$/,
    binds:
      'RFC 7643 §3: "The "schemas" attribute is a REQUIRED attribute and is an array of Strings containing URIs that are used to indicate the namespaces of the SCIM schemas that define the attributes present in the current JSON structure."',
  },
  {
    checks: /^scim\.invariant\.error-(body-matches-contract|status-equals-status)$/,
    binds: 'RFC 7644 §3.12: "status: The HTTP status code (see Section 6 of [RFC7231]) expressed as a JSON string. REQUIRED."',
  },
  {
    checks: /^scim\.invariant\.password-never-returned$/,
    binds: 'RFC 7643 §4.1.1 (password): "The cleartext value or the hashed value of a password SHALL NOT be returnable by a service provider."',
  },
  { checks: /^scim\.invariant\.id-in-every-resource$/, binds: ID },
];
