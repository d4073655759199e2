// The URL budget (profile limits.maxUrlBytes, suites/_harness/url-budget.ts): RFC 9110 §4.1
// RECOMMENDs that recipients accept URIs of at least 8000 octets, the default budget. The suite keeps
// every request within the budget; this check sends one exactly as long.
import { expectNotTooLong, queryAtBudget } from '../_harness/url-budget.js';
import { requirement } from '../_harness/requirement.js';

requirement(
  {
    id: 'intapi.http.long-url-accepted',
    level: 'SHOULD',
    spec: 'rfc9110#section-4.1',
    title: 'A list request as long as the URL budget (limits.maxUrlBytes) is not refused as too long',
  },
  async (t) => {
    // A filter on a string field of a collection nobody writes, whose literal takes the rest.
    if (!t.profile.expectations.lists.templates.filterable.includes('name')) t.skip('the profile lists no filterable name of templates to pad a URL with');
    const query = queryAtBudget(t.profile, 'templates.list', undefined, (pad) => ({ _filter: `name eq '${pad}'`, _limit: '1' }));
    expectNotTooLong(await t.http.send({ op: 'templates.list', query }));
  },
);
