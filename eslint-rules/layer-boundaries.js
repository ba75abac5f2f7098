// The architecture's import rules (docs/ARCHITECTURE.md, “Layers”), enforced on resolved paths rather than on the text of
// the import, so `../engine/../engine/org` or an absolute path cannot slip through.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** Where a repository path belongs, by its first folders. */
function layerOf(repoRelativePath) {
  const [top, second] = repoRelativePath.split(sep);
  if (top === 'engine') return second === 'api' ? 'engine/api' : 'engine';
  if (['main', 'preload', 'renderer'].includes(top)) return top;
  return null;
}

/** What each layer may import from the others; a layer always may import its own files. */
const ALLOWED_LAYERS = {
  renderer: ['engine/api'],
  preload: ['engine/api'],
  'engine/api': [],
  engine: ['engine/api'],
  main: ['engine', 'engine/api'],
};

const PACKAGE_RULES = {
  renderer: { node: false, forbidden: ['electron'] },
  preload: { node: false, forbidden: [] },
  'engine/api': { node: false, forbidden: ['electron'], allowedPackages: ['zod'] },
  engine: { node: true, forbidden: ['electron'] },
  main: { node: true, forbidden: [] },
};

/**
 * The engine's own layers, lowest first. A folder may import its own files and the folders of lower
 * layers, never a higher layer nor another folder of its own layer: the use-cases (app) sit on the
 * engine (run), which sits on the tools, which sit on the parts, which sit on the org folder model.
 */
const ENGINE_LAYERS = [
  ['api'],
  ['files', 'processes'],
  ['org'],
  ['bundle'],
  ['secrets', 'credits', 'memory', 'timeline', 'models'],
  ['net', 'sandbox'],
  ['messages'],
  ['tools'],
  ['trust'],
  ['run'],
  ['app'],
  ['cli'],
];
const ENGINE_RANK = new Map(
  ENGINE_LAYERS.flatMap((folders, rank) => folders.map((folder) => [folder, rank])),
);

/** The engine folder (`org`, `run`, …) of a repository path, or null outside engine/<folder>/. */
function engineFolderOf(repoRelativePath) {
  const [top, folder, ...rest] = repoRelativePath.split(sep);
  return top === 'engine' && rest.length > 0 ? folder : null;
}

/** Tests and their support files may set up any layer they need. */
function isTestFile(repoRelativePath) {
  return /\.test\.tsx?$/.test(repoRelativePath) || repoRelativePath.split(sep).includes('test-support');
}

function engineLayerProblem(fromPath, toPath) {
  const from = engineFolderOf(fromPath);
  const to = engineFolderOf(toPath);
  if (!from || !to || from === to || isTestFile(fromPath)) return null;
  const fromRank = ENGINE_RANK.get(from);
  const toRank = ENGINE_RANK.get(to);
  if (fromRank === undefined)
    return `engine/${from} is not in the engine's layer order (eslint-rules/layer-boundaries.js)`;
  if (toRank === undefined || toRank < fromRank) return null;
  return toRank === fromRank
    ? `engine/${from} and engine/${to} are parts of one layer and may not import each other`
    : `engine/${from} sits below engine/${to} and may not import it`;
}

/**
 * The renderer's own layers (docs/ARCHITECTURE.md, “Renderer”), lowest first: words and components know
 * nothing of main; the server-state layer is the only way to main; stores hold UI state on top of it;
 * shared holds the pieces several views show (an agent's tools, the live answer); views compose all of
 * these, and the shell composes the views. Files at renderer/src/ itself (App, main) sit on top. Views
 * are one layer of separate parts: no view imports another view (what two views share moves down, into
 * shared). Stylesheets are not parts: scripts/css-scope.ts says which view owns which class.
 */
const RENDERER_LAYERS = [
  ['words'],
  ['components'],
  ['server-state'],
  ['stores'],
  ['shared'],
  ['views'],
  ['shell'],
];
const RENDERER_RANK = new Map(
  RENDERER_LAYERS.flatMap((folders, rank) => folders.map((folder) => [folder, rank])),
);

/** The renderer folder (`views`, `stores`, …) and, under views/, the view of a path; null outside renderer/src/<folder>/. */
function rendererPartOf(repoRelativePath) {
  const [top, src, folder, view, ...rest] = repoRelativePath.split(sep);
  if (top !== 'renderer' || src !== 'src' || view === undefined) return null;
  return {
    folder,
    view: folder === 'views' ? view.replace(/\.[jt]sx?$/, '') : null,
    deeper: rest.length > 0,
  };
}

function rendererLayerProblem(fromPath, toPath) {
  const from = rendererPartOf(fromPath);
  const to = rendererPartOf(toPath);
  if (!from || !to || isTestFile(fromPath)) return null;
  if (from.folder === to.folder) {
    return from.folder === 'views' && from.view !== to.view
      ? `the ${from.view} view may not import the ${to.view} view; move what they share into renderer/src/shared`
      : null;
  }
  const fromRank = RENDERER_RANK.get(from.folder);
  const toRank = RENDERER_RANK.get(to.folder);
  if (fromRank === undefined)
    return `renderer/src/${from.folder} is not in the renderer's layer order (eslint-rules/layer-boundaries.js)`;
  if (toRank === undefined || toRank < fromRank) return null;
  return `renderer/src/${from.folder} sits below renderer/src/${to.folder} and may not import it`;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export default {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Keep engine, main, preload and renderer behind their import boundaries, and the engine in its layers.',
    },
    schema: [],
    messages: {
      crossLayer: '{{from}} may not import {{to}} ({{specifier}}). {{hint}}',
      engineLayer: '{{problem}} ({{specifier}}). Move the shared part down a layer, or pass it in.',
      rendererLayer: '{{problem}} ({{specifier}}).',
      nodeBuiltin: '{{from}} runs without Node: it may not import "{{specifier}}".',
      forbiddenPackage: '{{from}} may not import "{{specifier}}".',
      onlyPackages: '{{from}} may import only {{allowed}} from packages, not "{{specifier}}".',
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = layerOf(relative(root, file));
    if (!from) return {};

    function check(node, specifier) {
      if (typeof specifier !== 'string') return;
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const targetPath = relative(root, resolve(dirname(file), specifier));
        const target = layerOf(targetPath);
        if (target === 'renderer' && from === 'renderer') {
          if (specifier.endsWith('.css')) return;
          const problem = rendererLayerProblem(relative(root, file), targetPath);
          if (problem) context.report({ node, messageId: 'rendererLayer', data: { problem, specifier } });
          return;
        }
        if (target === 'engine' && from === 'engine') {
          const problem = engineLayerProblem(relative(root, file), targetPath);
          if (problem) context.report({ node, messageId: 'engineLayer', data: { problem, specifier } });
          return;
        }
        if (!target || target === from || ALLOWED_LAYERS[from].includes(target)) return;
        const hint =
          from === 'renderer' || from === 'preload'
            ? 'Go through the typed IPC contract in engine/api instead.'
            : from.startsWith('engine')
              ? 'The engine must not depend on the desktop app.'
              : '';
        context.report({ node, messageId: 'crossLayer', data: { from, to: target, specifier, hint } });
        return;
      }
      const rules = PACKAGE_RULES[from];
      if (NODE_BUILTINS.has(specifier)) {
        if (!rules.node) context.report({ node, messageId: 'nodeBuiltin', data: { from, specifier } });
        return;
      }
      const name = packageName(specifier);
      if (rules.forbidden.includes(name)) {
        context.report({ node, messageId: 'forbiddenPackage', data: { from, specifier } });
      } else if (rules.allowedPackages && !rules.allowedPackages.includes(name)) {
        context.report({
          node,
          messageId: 'onlyPackages',
          data: { from, specifier, allowed: rules.allowedPackages.join(', ') },
        });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        ) {
          check(node.arguments[0], node.arguments[0].value);
        }
      },
    };
  },
};
