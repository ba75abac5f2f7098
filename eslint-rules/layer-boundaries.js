// The architecture's import rules (DESIGN.md §1), enforced on resolved paths rather than on the text of
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

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Keep engine, main, preload and renderer behind their import boundaries.' },
    schema: [],
    messages: {
      crossLayer: '{{from}} may not import {{to}} ({{specifier}}). {{hint}}',
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
        const target = layerOf(relative(root, resolve(dirname(file), specifier)));
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
