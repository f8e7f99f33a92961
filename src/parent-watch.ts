/**
 * `npm start` runs the service as npm → sh → node. npm passes a SIGTERM it receives (a process
 * manager's stop) to that shell, which dies of it without passing it on, and npm exits: the
 * service would run on, re-parented, its embedded PostgreSQL with it (README.md, Quick start).
 * So, run by npm, the service watches its parent and, once it is gone, stops as on SIGTERM: the
 * same shutdown hooks (or the cluster supervisor's stop), then the embedded server.
 */
export function stopWithParent(say: (line: string) => void, everyMs = 250): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    say(`The process that started the service (pid ${parent}) is gone: stopping as on SIGTERM.`);
    process.kill(process.pid, 'SIGTERM');
  }, everyMs);
  timer.unref();
}
