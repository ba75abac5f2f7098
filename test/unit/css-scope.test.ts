import { describe, expect, it } from 'vitest';
import { repositoryStylesheets, scopeClashes, subjectClasses } from '../../scripts/css-scope';

describe('style scoping (npm run lint)', () => {
  it('finds no class styled by two views in the renderer', () => {
    const { stylesheets, shared } = repositoryStylesheets();
    expect(scopeClashes(stylesheets, shared)).toEqual([]);
  });

  it('reports a class two views both style, as .tool-toggle once was', () => {
    const clashes = scopeClashes(
      {
        agent: ['.tool-toggle { display: flex; }'],
        'tool-store': ['.store-tools .tool-toggle, .other { flex-direction: column; }'],
      },
      [],
    );
    expect(clashes).toEqual([{ name: 'tool-toggle', views: ['agent', 'tool-store'] }]);
  });

  it('lets a view refine a shared class, and ignores classes that only scope a selector', () => {
    expect(
      scopeClashes({ org: ['.org-view .muted { font-size: 1rem; }'], timeline: ['.muted:hover { }'] }, [
        '.muted { color: grey; }',
      ]),
    ).toEqual([]);
    expect([...subjectClasses('.org-view > .card .title:not(.x), .a + .b { }')]).toEqual(['title', 'b']);
  });
});
