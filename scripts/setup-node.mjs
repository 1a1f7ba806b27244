// Runtime shims for Node 20, loaded before anything else (tests, server, agents, benches).
// libp2p 3 and its dependencies call Promise.withResolvers (Node 22+).
if (typeof Promise.withResolvers !== 'function') {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

// @libp2p/websockets dials through a global WebSocket, which Node 20 only has behind
// --experimental-websocket. The `ws` package (already a dependency) provides a compatible one.
if (typeof globalThis.WebSocket !== 'function') {
  const { WebSocket } = await import('ws');
  globalThis.WebSocket = WebSocket;
}

// `import 'server-only'` is a no-op in plain Node processes (see scripts/server-only-hook.mjs);
// in Next's bundles it keeps server modules out of client components.
const { register } = await import('node:module');
register('./server-only-hook.mjs', import.meta.url);
