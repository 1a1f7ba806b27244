/**
 * Start-up order of the demo mesh: agents start and join the mesh while their identities are
 * being registered, and none gossips before its own registration, so nothing it sends is refused
 * as unknown. Real observer (PGlite), real agent processes from the bundled entry.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startObservatory } from '../observer/observatory';
import { makeBackend, quietLogger, waitFor } from '../observer/testing';
import type { LiveEvent } from '../observer/types';
import { DEMO_AGENT_NICE, startDemoMesh } from './demo-mesh';

test('agents join the mesh before registration completes and gossip only once registered', {
  timeout: 180_000,
}, async () => {
  const backend = await makeBackend('pglite');
  const obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers: 0 });
  const events: LiveEvent[] = [];
  obs.bus.subscribe((e) => events.push(e));
  const phases: string[] = [];
  const sentBefore: number[] = [];
  let registeredCount = 0;
  let releaseRegistration!: () => void;
  const registrationHeld = new Promise<void>((r) => {
    releaseRegistration = r;
  });
  let demo: Awaited<ReturnType<typeof startDemoMesh>> | undefined;
  try {
    const started = startDemoMesh({
      count: 2,
      bootstrap: obs.mesh.multiaddrs(),
      epochSeconds: 86_400,
      seed: 3,
      misbehaving: -1,
      autopilot: false,
      uploadIntervalMs: 60_000,
      // Registration is held until both agents' nodes are up: a start-up that waited for it
      // before starting the agents would never get there.
      register: async (id, pk) => {
        await registrationHeld;
        await obs.registry.register(id, pk);
        registeredCount++;
      },
      upload: (body) => obs.ingestUpload(body),
      onPhase: (phase) => {
        phases.push(phase);
        if (phase === 'all agent nodes up') releaseRegistration();
      },
      onReport: (agent, m) => {
        if (m.t === 'sent' && registeredCount === 0) sentBefore.push(agent);
      },
    });
    demo = await started;
    const at = (p: string) => phases.indexOf(p);
    assert.ok(
      at('all agent nodes up') >= 0 && at('agents registered') > at('all agent nodes up'),
      `phases in order: ${phases.join(', ')}`,
    );
    assert.deepEqual(sentBefore, [], 'no agent sent anything before it was registered');
    await waitFor('a BEACON from each agent', () =>
      demo!.agents.every((a) =>
        events.some((e) => e.type === 'message' && e.data.type === 'BEACON' && e.data.sender === a.agentId),
      ),
    );
    const unregistered = obs.dropCounts().unregistered ?? 0;
    assert.equal(unregistered, 0, 'no envelope was refused for an unregistered sender');
    // The agents stand in for other machines: they yield the cores to the observatory.
    const { getPriority } = await import('node:os');
    for (const a of demo.agents)
      assert.equal(
        getPriority(a.process.pid),
        Math.min(19, getPriority() + DEMO_AGENT_NICE),
        `agent ${a.index} runs at a lower priority`,
      );
  } finally {
    releaseRegistration();
    await demo?.stop();
    await obs.stop();
    await backend.cleanup();
  }
});
