import type { JsonObject } from '../../rules/json.js';
import { FieldSchema } from '../../rules/fields.js';
import type { ResourceRecord } from '../store/records.js';

/** spec#integration-api-resource-learning-resource; filterable and sortable: id, name, description, file. */
export const RESOURCE_FIELDS = new FieldSchema<ResourceRecord>([
  { name: 'id', type: 'guid', get: (r) => r.id },
  { name: 'name', type: 'string', get: (r) => r.name },
  { name: 'description', type: 'string', get: (r) => r.description },
  { name: 'file', type: 'string', get: (r) => r.file },
]);

export function serializeResource(resource: ResourceRecord): JsonObject {
  return { id: resource.id, name: resource.name, description: resource.description, file: resource.file };
}
