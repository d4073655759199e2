// Learning-resource operations, versions 1 and 2 (spec#integration-api-learning-resources-v1-and-v2).
import { idsOf, unknownId } from '../_harness/records.js';
import { describeResponse, expectStatus, fail } from '../_harness/failure.js';
import { statusChecks, type StatusRow } from '../_harness/statuses.js';
import { requirement, type CheckContext } from '../_harness/requirement.js';
import { enrollment, profileRecord } from '../_harness/intapi/records.js';
import { readAll } from '../_harness/intapi/lists.js';

const SPEC = 'spec#integration-api-learning-resources-v1-and-v2';

/** A resource of the profile's course, read through the API. */
async function courseResource(t: CheckContext): Promise<string> {
  const courseId = profileRecord(t, 'courseId');
  const res = await t.http.send({ op: 'resources.listForCourse', params: { courseId } });
  expectStatus(res, 200, 'listing the resources of the profile course');
  const first = Array.isArray(res.json) ? (res.json[0] as { id?: unknown } | undefined) : undefined;
  if (typeof first?.id !== 'string') fail('the profile course to have a resource', 'none', res);
  return first.id;
}

/** A resource that is not one of the profile course's: from the general list, minus the course's. */
async function resourceOfAnotherCourse(t: CheckContext): Promise<string> {
  const courseId = profileRecord(t, 'courseId');
  const inCourse = await t.http.send({ op: 'resources.listForCourse', params: { courseId } });
  expectStatus(inCourse, 200, 'listing the resources of the profile course');
  if (!Array.isArray(inCourse.json)) fail('a bare array of resources', describeResponse(inCourse), inCourse);
  const all = await readAll(t, { label: 'List resources (v1)', op: 'resources.list', version: '1' });
  const own = new Set(idsOf(inCourse.json));
  const other = idsOf(all.items).find((id) => !own.has(id));
  if (!other) t.skip('every resource of the target belongs to the profile course');
  return other;
}

function rows(version: '1' | '2'): StatusRow[] {
  const p = `intapi.v${version}.resources`;
  const v = { version } as const;
  return [
    {
      id: `${p}.get.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `Get resource (v${version}) of an existing id answers 200`,
      status: 200,
      request: async (t) => ({ op: 'resources.get', ...v, params: { resourceId: await courseResource(t) } }),
    },
    {
      id: `${p}.get.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get resource (v${version}) of an unknown id answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.get', ...v, params: { resourceId: unknownId(t) } }),
    },
    {
      id: `${p}.list.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources (v${version}) answers 200`,
      status: 200,
      request: () => ({ op: 'resources.list', ...v }),
    },
    {
      id: `${p}.list-for-user.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources of an existing user (v${version}) answers 200`,
      status: 200,
      request: (t) => ({ op: 'resources.listForUser', ...v, params: { userId: profileRecord(t, 'userId') } }),
    },
    {
      id: `${p}.list-for-user.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `List resources of an unknown user (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listForUser', ...v, params: { userId: unknownId(t) } }),
    },
    {
      id: `${p}.list-mine.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources of the current user (v${version}) answers 200`,
      status: 200,
      request: () => ({ op: 'resources.listMine', ...v }),
    },
    {
      id: `${p}.list-for-course.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources of an existing course (v${version}) answers 200`,
      status: 200,
      request: (t) => ({ op: 'resources.listForCourse', ...v, params: { courseId: profileRecord(t, 'courseId') } }),
    },
    {
      id: `${p}.list-for-course.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `List resources of an unknown course (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listForCourse', ...v, params: { courseId: unknownId(t) } }),
    },
    {
      id: `${p}.get-for-course.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `Get resource of a course (v${version}) answers 200`,
      status: 200,
      request: async (t) => ({ op: 'resources.getForCourse', ...v, params: { courseId: profileRecord(t, 'courseId'), resourceId: await courseResource(t) } }),
    },
    {
      id: `${p}.get-for-course.unknown-course-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get resource of an unknown course (v${version}) answers 404`,
      status: 404,
      request: async (t) => ({ op: 'resources.getForCourse', ...v, params: { courseId: unknownId(t), resourceId: await courseResource(t) } }),
    },
    {
      id: `${p}.get-for-course.unknown-resource-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get an unknown resource of a course (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.getForCourse', ...v, params: { courseId: profileRecord(t, 'courseId'), resourceId: unknownId(t) } }),
    },
    {
      id: `${p}.get-for-course.other-course-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `Get resource of a course (v${version}) for a resource of another course answers 404`,
      status: 404,
      request: async (t) => ({
        op: 'resources.getForCourse',
        ...v,
        params: { courseId: profileRecord(t, 'courseId'), resourceId: await resourceOfAnotherCourse(t) },
      }),
    },
    {
      id: `${p}.list-for-enrollment.not-enrolled-404`,
      level: 'PROFILE',
      spec: 'spec#errors',
      title: `List enrollment resources (v${version}) of a user not enrolled in the course answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listForEnrollment', ...v, params: { userId: profileRecord(t, 'otherUserId'), courseId: enrollment(t).courseId } }),
    },
    {
      id: `${p}.list-for-enrollment.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources of a user's enrollment (v${version}) answers 200`,
      status: 200,
      request: (t) => ({ op: 'resources.listForEnrollment', ...v, params: enrollment(t) }),
    },
    {
      id: `${p}.list-for-enrollment.unknown-user-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `List enrollment resources of an unknown user (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listForEnrollment', ...v, params: { ...enrollment(t), userId: unknownId(t) } }),
    },
    {
      id: `${p}.list-for-enrollment.unknown-course-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `List enrollment resources of an unknown course (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listForEnrollment', ...v, params: { ...enrollment(t), courseId: unknownId(t) } }),
    },
    {
      id: `${p}.list-mine-for-course.status-200`,
      level: 'MUST',
      spec: SPEC,
      title: `List resources of a course for the current user (v${version}) answers 200`,
      status: 200,
      request: (t) => ({ op: 'resources.listMineForCourse', ...v, params: { courseId: enrollment(t).courseId } }),
    },
    {
      id: `${p}.list-mine-for-course.unknown-id-404`,
      level: 'MUST',
      spec: 'spec#errors',
      title: `List resources of an unknown course for the current user (v${version}) answers 404`,
      status: 404,
      request: (t) => ({ op: 'resources.listMineForCourse', ...v, params: { courseId: unknownId(t) } }),
    },
    {
      id: `${p}.get.non-guid-id`,
      level: 'PROFILE',
      spec: 'public-facts#errors',
      title: `Get resource (v${version}) with an id that is not a GUID answers the profile's status`,
      status: (t) => t.profile.expectations.pathIdNotGuidStatus,
      request: () => ({ op: 'resources.get', ...v, params: { resourceId: 'not-a-guid' } }),
    },
  ];
}

statusChecks([...rows('1'), ...rows('2')]);

// spec#authentication: operations "for the current authenticated user" act on the identity
// behind the credentials: the profile's userId is that identity.
requirement(
  {
    id: 'intapi.v2.resources.list-mine.is-current-user',
    level: 'MUST',
    spec: 'spec#integration-api',
    title: "List resources of the current user equals the list for the credentials' user",
  },
  async (t) => {
    const mine = await t.http.send({ op: 'resources.listMine' });
    const theirs = await t.http.send({ op: 'resources.listForUser', params: { userId: profileRecord(t, 'userId') } });
    expectStatus(mine, 200);
    expectStatus(theirs, 200);
    if (!Array.isArray(mine.json)) fail('a bare array of resources', describeResponse(mine), mine);
    if (!Array.isArray(theirs.json)) fail('a bare array of resources', describeResponse(theirs), theirs);
    // Two empty lists would agree whatever the rule: the check needs a user with resources.
    t.requireData(mine.json.length > 0 || theirs.json.length > 0, "the credentials' user has no resources");
    const ids = (r: unknown[]) => idsOf(r).sort().join();
    if (ids(mine.json) !== ids(theirs.json))
      fail(
        "the current user's resources to be the credentials' user's",
        `${ids(mine.json).split(',').length} vs ${ids(theirs.json).split(',').length} resources`,
        mine,
      );
  },
);
