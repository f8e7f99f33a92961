/**
 * The embedded PostgreSQL's keeper, run as `node -e KEEPER_SOURCE <options>` with an IPC channel
 * to its owner: it fast-stops `postgres` when the owner asks ('stop') or the channel closes
 * (the owner died, even by kill -9), so no PostgreSQL outlives the service. Plain JavaScript in a
 * string so it runs alike from dist/, ts-node and Jest's global setup.
 */
export const KEEPER_SOURCE = String.raw`
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const o = JSON.parse(process.argv[1]);
const ids = o.uid === null ? {} : { uid: o.uid, gid: o.gid };
const server = spawn(o.postgres, o.args, { stdio: ['ignore', 'inherit', 'inherit'], windowsHide: true, ...ids });
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  if (process.platform === 'win32') {
    spawnSync(o.pgCtl, ['stop', '-D', o.dataDir, '-m', 'fast', '-w'], { stdio: 'ignore', windowsHide: true, ...ids });
  } else {
    server.kill('SIGINT');
  }
}
server.on('error', (e) => {
  process.stderr.write('embedded PostgreSQL: ' + e.message + '\n');
  process.exit(1);
});
server.on('exit', (code, signal) => process.exit(code === null ? (signal ? 1 : 0) : code));
process.on('disconnect', stop);
process.on('message', (m) => { if (m === 'stop') stop(); });
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, stop);
if (!process.connected) stop();
`;
