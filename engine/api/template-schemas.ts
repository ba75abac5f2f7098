import { z } from 'zod';
import { ReachItem } from './trust-schemas';

/** A template's name: its folder under the shipped templates, and what `lemming init --template` takes. */
export const TemplateName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'A template name uses only lowercase letters, digits and "-".');
export type TemplateName = z.infer<typeof TemplateName>;

/** A template's own words (its `template.json`): what the gallery shows above its agents. */
export const TemplateMetadata = z.looseObject({
  title: z.string({ error: 'title must be text' }).trim().min(1, 'title must not be empty'),
  purpose: z.string({ error: 'purpose must be text' }).trim().min(1, 'purpose must not be empty'),
});
export type TemplateMetadata = z.infer<typeof TemplateMetadata>;

/** One agent of a template, as its resume says: what it is called and what it does, in plain words. */
export const TemplateAgent = z.object({
  name: z.string(),
  title: z.string(),
  does: z.string(),
});
export type TemplateAgent = z.infer<typeof TemplateAgent>;

/** One card of the gallery: the template's words, its agents, and who hears from whom (its graph's edges). */
export const TemplateCard = z.object({
  name: TemplateName,
  title: z.string(),
  purpose: z.string(),
  agents: z.array(TemplateAgent),
  /** Messages flow `from` → `to`, as the org's graph draws them (wildcard reads left out). */
  edges: z.array(z.object({ from: z.string(), to: z.string() })),
  /** What an org made from it could run or reach (its trust screen's list); empty for most templates. */
  reach: z.array(ReachItem),
});
export type TemplateCard = z.infer<typeof TemplateCard>;

/** The gallery: every template that reads well, and for each one that does not, why. */
export const TemplateGallery = z.object({
  templates: z.array(TemplateCard),
  problems: z.array(z.object({ template: z.string(), message: z.string() })),
});
export type TemplateGallery = z.infer<typeof TemplateGallery>;

export const CreateFromTemplateInput = z.strictObject({
  template: TemplateName,
  /** An empty folder, or one that does not exist yet, for the new org. */
  path: z.string().min(1),
});
export type CreateFromTemplateInput = z.infer<typeof CreateFromTemplateInput>;
