// The URL budget (profile limits.maxUrlBytes, suites/_harness/url-budget.ts): RFC 9110 §4.1
// RECOMMENDs that recipients accept URIs of at least 8000 octets, the default budget. The suite keeps
// every request within the budget; this check sends one exactly as long.
import { expectNotTooLong, queryAtBudget } from '../_harness/url-budget.js';
import { requirement } from '../_harness/requirement.js';

requirement(
  {
    id: 'scim.http.long-url-accepted',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'A filtered list of users as long as the URL budget (limits.maxUrlBytes) is not refused as too long',
  },
  async (t) => {
    // A userName no user has (it is longer than any the suite creates), in a filter that takes the rest.
    const query = queryAtBudget(t.profile, 'scim.users.list', undefined, (pad) => ({ filter: `userName eq "lpc-${pad}"`, count: '1' }));
    expectNotTooLong(await t.http.send({ op: 'scim.users.list', query }));
  },
);
