/**
 * The demo end to end on one `npm start` server (e2e/demo/server.ts): the browsers on the mesh
 * over WebRTC first (live gossip from the start), then verify-it-yourself in Chromium, then the
 * chain story (batches, a resolved challenge, Haggle settlements), whose waits are the longest.
 */
import { after } from 'node:test';
import { stopDemoServer } from './demo/server';
import './demo/browser-webrtc';
import './demo/verify';
import './demo/chain';

after(() => stopDemoServer());
