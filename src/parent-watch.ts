/**
 * Under npm → sh → node, a SIGTERM to npm kills the shell without passing it on, and the service
 * would run on re-parented. So it watches its parent and, once it is gone, stops as on SIGTERM.
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
