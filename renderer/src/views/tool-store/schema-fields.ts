/** One field of a connector's settings drawer, read from its JSON Schema. */
export type SchemaField =
  | {
      name: string;
      title: string;
      description: string;
      type: 'text' | 'number' | 'integer' | 'boolean' | 'list';
    }
  | { name: string; title: string; description: string; type: 'enum'; options: string[] }
  | { name: string; title: string; description: string; type: 'secret' };

type Json = Record<string, unknown>;

/**
 * The drawer's fields, in the schema's order: strings, numbers, booleans, enums, lists of strings, and
 * `writeOnly` strings as secrets. A property of another shape is left to the raw settings file.
 */
export function schemaFields(schema: Json): SchemaField[] {
  const properties = record(schema.properties);
  return Object.entries(properties).flatMap(([name, value]): SchemaField[] => {
    const property = record(value);
    const base = {
      name,
      title: typeof property.title === 'string' ? property.title : name,
      description: typeof property.description === 'string' ? property.description : '',
    };
    if (Array.isArray(property.enum)) return [{ ...base, type: 'enum', options: property.enum.map(String) }];
    switch (property.type) {
      case 'string':
        return [{ ...base, type: property.writeOnly === true ? 'secret' : 'text' }];
      case 'number':
      case 'integer':
      case 'boolean':
        return [{ ...base, type: property.type }];
      case 'array':
        return record(property.items).type === 'string' ? [{ ...base, type: 'list' }] : [];
      default:
        return [];
    }
  });
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
