// A verification worker that exits on its first request without answering (verify-pool tests).
import { parentPort } from 'node:worker_threads';

parentPort.on('message', () => process.exit(3));
