/**
 * The embedded PostgreSQL's keeper: a small Node.js process between the service and the
 * server, run as `node -e KEEPER_SOURCE <options as JSON>` with an IPC channel to the process
 * that started it (its owner). It starts `postgres` and stops it (fast shutdown: SIGINT, or
 * `pg_ctl stop -m fast` on Windows, which has no signals) when the owner asks ('stop'), or
 * when the channel closes: the owner exited, however it exited (a signal, a crash, kill -9).
 * Then it exits with the server. So no PostgreSQL outlives the service that started it, while
 * the service's own shutdown (draining requests and queues, then closing its pools) runs to the
 * end before the server goes.
 *
 * Plain JavaScript in a string: it runs the same from dist/, under ts-node (the CLI) and from
 * Jest's global setup, with no file of its own to find.
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
