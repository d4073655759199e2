// SCIM /Me (RFC 7644 §3.11): when the target serves it (the profile's `unsupported` leaves it
// out), /Me stands for the resource of the authenticated subject: the same user every time, and
// the user its id names at /Users. The checks only read /Me: the subject is the token's own account.
import { fail } from '../_harness/failure.js';
import type { ApiResponse } from '../_harness/http.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { requireServed } from '../_harness/scim/capabilities.js';
import { resourceOf } from '../_harness/scim/records.js';

/** GET /Me; a 308 (RFC 7644 §3.11 allows a redirect to the resource) is followed once. */
async function me(t: CheckContext): Promise<ApiResponse> {
  const res = await t.http.send({ op: 'scim.users.get', route: { method: 'GET', path: '/Me' } });
  const location = res.headers.location;
  if (res.status !== 308 || location === undefined) return res;
  const id = location.replace(/\/+$/, '').split('/').at(-1) ?? '';
  return t.http.send({ op: 'scim.users.get', params: { id: decodeURIComponent(id) } });
}

requirement(
  {
    id: 'scim.me.authenticated-subject',
    level: 'MUST',
    spec: 'rfc7644#section-3.11',
    title: 'GET /Me answers the same user each time, the one its id names at /Users',
  },
  async (t) => {
    requireServed(t, '/Me');
    const first = await me(t);
    if (first.status !== 200) fail('200 with the authenticated subject (or 308 to it): the profile says /Me is served', `${first.status}`, first);
    const subject = resourceOf(first);
    if (typeof subject.id !== 'string') fail('the subject with its id', `id ${JSON.stringify(subject.id)}`, first);
    const again = await me(t);
    if (resourceOf(again).id !== subject.id)
      fail(`the same subject ${subject.id} again`, `${again.status} with id ${JSON.stringify(resourceOf(again).id)}`, again);
    const byId = await t.http.send({ op: 'scim.users.get', params: { id: subject.id } });
    if (byId.status !== 200 || resourceOf(byId).userName !== subject.userName)
      fail(
        `GET /Users/${subject.id}: 200 with the userName /Me gave (${JSON.stringify(subject.userName)})`,
        `${byId.status} with userName ${JSON.stringify(resourceOf(byId).userName)}`,
        byId,
      );
  },
);
