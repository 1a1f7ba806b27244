// Module resolve hook, registered by scripts/setup-node.mjs for every process the project runs.
// `import 'server-only'` marks a module that must never reach a browser bundle: its package
// resolves to a module that throws unless the "react-server" export condition is active, which
// Next.js turns on for server components and route handlers (and Next fails a client build that
// reaches it). Plain Node (the custom server, tests, agents, benches) has no such condition, so
// for that one package the condition is added here and the import is the package's empty module.
export async function resolve(specifier, context, nextResolve) {
  if (specifier !== 'server-only') return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
}
