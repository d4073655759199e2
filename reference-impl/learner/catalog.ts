import { notFound } from '../http/errors.js';
import type { JsonObject } from '../rules/json.js';
import type { LearnerBehaviour } from './behaviour.js';
import { LEARNER_PREFIX, learnerOf, type LearnerDeps, type LearnerOperation, PLAYER_PREFIX } from './context.js';
import { halPage, pathGuid, QueryReader } from './query.js';
import type { Category, Course, Learner } from './seed.js';
import type { LearnerStore } from './store.js';

/**
 * The catalog (spec#learner-facing-api, public-facts#learner-api): GET /my-catalog with
 * `categoryId` and `includeSubcategories`, GET /my-catalog/categories (the tree, so that a check
 * can learn it), and GET /courses/{courseId} (one catalog course with its tags and lessons, what
 * the course player shows).
 */

/** Enrollment statuses (public-facts#enumerations-known), null where the learner is not enrolled. */
const ENROLLMENT: readonly (number | null)[] = [null, 0, 1, 3, null, 2, 8, 4, null, 5];

export const courseImageUrl = (origin: string, course: Course): string | null =>
  course.hasImage ? `${origin}${PLAYER_PREFIX}/assets/course-${course.id}.svg` : null;

/** A catalog course: `id, name, description, imageUrl, courseType, enrollmentStatus, parentCategoryId`. */
export function catalogCourse(course: Course, learner: Learner, origin: string, catalog: LearnerBehaviour['catalog']): JsonObject {
  const item: JsonObject = {
    id: course.id,
    name: course.name,
    description: course.description,
    imageUrl: courseImageUrl(origin, course),
    courseType: course.courseType,
    enrollmentStatus: ENROLLMENT[(course.index + 3 * learner.index) % ENROLLMENT.length] ?? null,
  };
  if (catalog.parentCategoryId === 'present') item.parentCategoryId = course.categoryId;
  return item;
}

const categoryItem = (category: Category): JsonObject => ({ id: category.id, name: category.name, parentCategoryId: category.parentId });

/** The category and, with `includeSubcategories=true`, every category below it (or only its children, a fault). */
function categoriesSelected(store: LearnerStore, categoryId: string, subcategories: boolean, catalog: LearnerBehaviour['catalog']): Set<string> {
  const selected = new Set([categoryId.toLowerCase()]);
  if (!subcategories || catalog.subcategories === 'ignored') return selected;
  let frontier = [categoryId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) for (const child of store.childrenOf(id)) next.push(child.id);
    for (const id of next) selected.add(id);
    if (catalog.subcategories === 'children-only') break;
    frontier = next;
  }
  return selected;
}

/** A catalog course by its id: 404 when no course has it (an unhandled error under its fault). */
function catalogCourseById(store: LearnerStore, id: string, b: LearnerBehaviour): Course {
  const course = store.course(id);
  if (course !== undefined) return course;
  if (b.errors.unknownCourse === 500) throw new TypeError(`no course ${id}`);
  throw notFound(`No course ${id}.`);
}

export function catalogOperations(deps: LearnerDeps): LearnerOperation[] {
  const { store, behaviour: b } = deps;
  return [
    {
      id: 'learner.catalog.list',
      method: 'GET',
      path: '/my-catalog',
      auth: 'token',
      handle: ({ context, query }) => {
        const q = new QueryReader(query);
        const categoryId = q.guid('categoryId');
        const subcategories = q.flag('includeSubcategories') === true;
        const page = q.page(b.paging);
        q.check();
        let courses = store.seed.courses;
        if (categoryId !== undefined && b.catalog.categoryFilter === 'applied') {
          const selected = categoriesSelected(store, categoryId, subcategories, b.catalog);
          courses = courses.filter((c) => c.categoryId !== null && selected.has(c.categoryId));
        }
        const learner = learnerOf(context);
        const items = courses.map((c) => catalogCourse(c, learner, context.origin, b.catalog));
        return { status: 200, body: halPage(items, page, b.paging, { key: 'courses', path: `${LEARNER_PREFIX}/my-catalog`, query }) };
      },
    },
    {
      id: 'learner.catalog.categories',
      method: 'GET',
      path: '/my-catalog/categories',
      auth: 'token',
      handle: ({ query }) => {
        const q = new QueryReader(query);
        const page = q.page(b.paging);
        q.check();
        const items = store.seed.categories.map(categoryItem);
        return { status: 200, body: halPage(items, page, b.paging, { key: 'categories', path: `${LEARNER_PREFIX}/my-catalog/categories`, query }) };
      },
    },
    {
      id: 'learner.courses.get',
      method: 'GET',
      path: '/courses/:courseId',
      auth: 'token',
      handle: ({ context, params }) => {
        const id = pathGuid('courseId', params.courseId, b.errors);
        const course = catalogCourseById(store, id, b);
        return {
          status: 200,
          body: {
            ...catalogCourse(course, learnerOf(context), context.origin, b.catalog),
            tags: [...course.tags],
            lessons: course.lessons.map((l) => ({ id: l.id, name: l.name, order: l.order })),
          },
        };
      },
    },
  ];
}
