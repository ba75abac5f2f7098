import { describe, expect, it } from 'vitest';
import { schemaFields } from './schema-fields';

describe('schemaFields', () => {
  it('reads each supported property type in schema order, secrets from writeOnly strings', () => {
    const fields = schemaFields({
      type: 'object',
      properties: {
        enabled: { type: 'boolean', title: 'Allow network access', description: 'Off by default.' },
        region: { type: 'string', enum: ['eu', 'us'] },
        retries: { type: 'integer' },
        ratio: { type: 'number' },
        label: { type: 'string' },
        hosts: { type: 'array', items: { type: 'string' } },
        API_KEY: { type: 'string', writeOnly: true, title: 'API_KEY' },
      },
    });
    expect(fields.map((field) => [field.name, field.type])).toEqual([
      ['enabled', 'boolean'],
      ['region', 'enum'],
      ['retries', 'integer'],
      ['ratio', 'number'],
      ['label', 'text'],
      ['hosts', 'list'],
      ['API_KEY', 'secret'],
    ]);
    expect(fields[0]).toMatchObject({ title: 'Allow network access', description: 'Off by default.' });
    expect(fields[1]).toMatchObject({ options: ['eu', 'us'] });
    expect(fields[2]).toMatchObject({ title: 'retries', description: '' });
  });

  it('leaves out shapes a form cannot edit, and schemas without properties', () => {
    expect(
      schemaFields({
        properties: { nested: { type: 'object' }, lists: { type: 'array', items: { type: 'object' } } },
      }),
    ).toEqual([]);
    expect(schemaFields({ type: 'object' })).toEqual([]);
  });
});
