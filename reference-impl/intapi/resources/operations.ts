import { notFound } from '../../http/errors.js';
import type { Call, Result } from '../../http/route.js';
import type { JsonValue } from '../../rules/json.js';
import type { ResourceRecord } from '../store/records.js';
import { type IntapiContext, type IntapiDeps, type IntapiOperation, V1_AND_V2 } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { currentUserId, finishObject, guidParams, unknownId } from '../requests.js';
import { RESOURCE_FIELDS, serializeResource } from './fields.js';

/**
 * The eight learning-resource operations, versions 1 and 2
 * (spec#integration-api-learning-resources-v1-and-v2). Only the general list takes the list
 * parameters; it answers a bare array in version 1 and the envelope in version 2. The per-user,
 * per-course and current-user lists answer a bare array of all their resources.
 */
export function resourceOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour } = deps;
  const { errors, lists, reads, responses } = behaviour;
  const present = (resource: ResourceRecord) => finishObject(serializeResource(resource), responses.nulls);
  const bareArray = (resources: readonly ResourceRecord[]): Result => ({ status: 200, body: resources.map(present) });

  // An unknown id answers 404, or (a fault) the operation's blank answer: an empty list, or the
  // blank resource of the requested resource id.
  const noResources = (): JsonValue => [];
  const blankResource = (resourceId: string) => (): JsonValue => present({ id: resourceId, courseId: '', name: '', description: '', file: null });
  const requireUser = (userId: string, blank: () => JsonValue): void => {
    if (!store.users.has(userId)) throw unknownId(`User with identifier ${userId} does not exist.`, blank, [`userId: no user ${userId}`]);
  };
  const requireCourse = (courseId: string, blank: () => JsonValue): void => {
    if (!store.courses.has(courseId)) throw unknownId(`Course with identifier ${courseId} does not exist.`, blank, [`courseId: no course ${courseId}`]);
  };
  const requireEnrollment = (userId: string, courseId: string): void => {
    if (!store.isEnrolled(userId, courseId)) {
      throw notFound(`User ${userId} is not enrolled in course ${courseId}.`, [`courseId: no enrollment of user ${userId} in course ${courseId}`]);
    }
  };
  const ids = <const N extends string>(call: Call<IntapiContext>, names: readonly N[]) => guidParams(call, names, errors);

  /** Every resource operation is a GET of versions 1 and 2 that needs a token. */
  const get = (id: string, path: string, handle: IntapiOperation['handle']): IntapiOperation => ({
    id,
    method: 'GET',
    path,
    versions: V1_AND_V2,
    auth: 'token',
    handle,
  });

  return [
    get('resources.get', '/resources/:resourceId', (call) => {
      const { resourceId } = ids(call, ['resourceId']);
      const found = store.resources.get(resourceId);
      if (found === undefined) throw unknownId(`Resource with identifier ${resourceId} does not exist.`, blankResource(resourceId));
      return { status: 200, body: present(found) };
    }),
    get('resources.list', '/resources', (call) => {
      const v1 = call.context.version === 1;
      const params = readListParams(call.query, 'full', lists);
      const outcome = runList(store.resources, params, RESOURCE_FIELDS, lists, { applyFilter: !v1 || lists.v1Filter === 'apply' });
      const items = outcome.page.map(present);
      // spec#versioning 2: version 1 answers a bare array, version 2 the envelope.
      if ((v1 ? lists.v1Shape : lists.v2Shape) === 'array') return { status: 200, body: items };
      return { status: 200, body: envelope('resources', outcome, items, behaviour.envelope) };
    }),
    get('resources.listForUser', '/users/:userId/resources', (call) => {
      const { userId } = ids(call, ['userId']);
      requireUser(userId, noResources);
      return bareArray(store.resourcesOfUser(userId));
    }),
    get('resources.listMine', '/enrollments/myresources', (call) => bareArray(store.resourcesOfUser(currentUserId(call)))),
    get('resources.listForCourse', '/courses/:courseId/resources', (call) => {
      const { courseId } = ids(call, ['courseId']);
      requireCourse(courseId, noResources);
      return bareArray(store.resourcesOfCourse(courseId));
    }),
    get('resources.getForCourse', '/courses/:courseId/resources/:resourceId', (call) => {
      const { courseId, resourceId } = ids(call, ['courseId', 'resourceId']);
      requireCourse(courseId, blankResource(resourceId));
      const found = store.resources.get(resourceId);
      const missing = `Resource with identifier ${resourceId} does not exist in course ${courseId}.`;
      if (found === undefined) throw unknownId(missing, blankResource(resourceId));
      // A resource of another course exists: not an unknown id, always 404 (unless a fault says any course).
      if (reads.courseResource === 'same-course' && found.courseId.toLowerCase() !== courseId.toLowerCase()) throw notFound(missing);
      return { status: 200, body: present(found) };
    }),
    get('resources.listForEnrollment', '/users/:userId/enrollments/:courseId/resources', (call) => {
      const { userId, courseId } = ids(call, ['userId', 'courseId']);
      requireUser(userId, noResources);
      requireCourse(courseId, noResources);
      if (reads.enrollmentResources === 'enrolled') requireEnrollment(userId, courseId);
      return bareArray(store.resourcesOfCourse(courseId));
    }),
    get('resources.listMineForCourse', '/enrollments/:courseId/myresources', (call) => {
      const { courseId } = ids(call, ['courseId']);
      requireCourse(courseId, noResources);
      const userId = currentUserId(call);
      requireEnrollment(userId, courseId);
      return bareArray(store.resourcesOfCourse(courseId));
    }),
  ];
}
