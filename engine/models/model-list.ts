import { z } from 'zod';
import type { ServerModel } from '../api/model-setup-schemas';

const ListedModel = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  model: z.string().optional(),
  display_name: z.string().optional(),
});
type ListedModel = z.infer<typeof ListedModel>;

/** The models in a server's list answer (`{ data: [...] }` or `{ models: [...] }`); null when it is not one. */
export function modelListIn(
  body: unknown,
  field: 'data' | 'models',
  toModel: (item: ListedModel) => ServerModel,
): ServerModel[] | null {
  const checked = z.looseObject({ [field]: z.array(z.unknown()) }).safeParse(body);
  if (!checked.success) return null;
  const items = (checked.data[field] as unknown[]).flatMap((item) => {
    const listed = ListedModel.safeParse(item);
    return listed.success ? [toModel(listed.data)] : [];
  });
  return items.filter((item) => item.id !== '');
}
