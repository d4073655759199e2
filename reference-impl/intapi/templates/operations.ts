import type { JsonObject } from '../../rules/json.js';
import { FieldSchema } from '../../rules/fields.js';
import type { TemplateRecord } from '../store/records.js';
import { type IntapiDeps, type IntapiOperation, V2_ONLY } from '../context.js';
import { readListParams } from '../lists/params.js';
import { envelope, runList } from '../lists/run.js';
import { guidParams, unknownId } from '../requests.js';

/** spec#integration-api-template-v2; filterable and sortable: id, name, isActive. */
export const TEMPLATE_SCHEMA = new FieldSchema<TemplateRecord>([
  { name: 'id', type: 'guid', get: (t) => t.id },
  { name: 'name', type: 'string', get: (t) => t.name },
  { name: 'isActive', type: 'boolean', get: (t) => t.isActive },
]);

const serializeTemplate = (template: TemplateRecord): JsonObject => ({ id: template.id, name: template.name, isActive: template.isActive });

/** Templates, version 2 only (spec#integration-api-submissions-and-templates-v2). */
export function templateOperations(deps: IntapiDeps): IntapiOperation[] {
  const { store, behaviour } = deps;
  return [
    {
      id: 'templates.list',
      method: 'GET',
      path: '/templates',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const outcome = runList(store.templates, readListParams(call.query, 'full', behaviour.lists), TEMPLATE_SCHEMA, behaviour.lists);
        return { status: 200, body: envelope('templates', outcome, outcome.page.map(serializeTemplate), behaviour.envelope) };
      },
    },
    {
      id: 'templates.get',
      method: 'GET',
      path: '/templates/:id',
      versions: V2_ONLY,
      auth: 'token',
      handle: (call) => {
        const { id } = guidParams(call, ['id'], behaviour.errors);
        const found = store.templates.get(id);
        if (found === undefined) throw unknownId(`Template with identifier ${id} does not exist.`, () => serializeTemplate({ id, name: '', isActive: false }));
        return { status: 200, body: serializeTemplate(found) };
      },
    },
  ];
}
